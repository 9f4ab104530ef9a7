/**
 * The user a first OAuth sign-in creates: named and pictured as the provider
 * says, with the provider's e-mail as primary e-mail (verified only if the
 * provider verified it), signing in with it when nobody else does. An
 * anonymous user who signs in this way is upgraded in place and keeps their
 * id and data; otherwise a new user gets what any sign-up gets (personal
 * team, default permissions: users/create.ts).
 */
import { DISPLAY_NAME_MAX_LENGTH, profileImageUrlSchema } from "@latchkey/shared";
import type { EventTx } from "../../../events/transaction.ts";
import type { Services } from "../../../services.ts";
import { createUser } from "../../users/create.ts";
import type { UserRecord } from "../../users/record.ts";
import { lockAnonymousUser, upgradeAnonymousUser } from "../anonymous/upgrade-anonymous.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

/** Who the provider says the user is (its user-info, mapped per provider). */
export interface ProviderProfile {
  accountId: string;
  email: string | null;
  emailVerified: boolean;
  displayName: string | null;
  profileImageUrl: string | null;
}

export interface NewOAuthUser {
  profile: ProviderProfile;
  /** false: another user signs in with this address (allow_duplicates), so this one only shows it. */
  emailSignsIn: boolean;
  /** The caller's user when the flow began: upgraded if still anonymous, else not used. */
  anonymousUserId: string | null;
  /** risk_scores.sign_up.bot from the flow's bot challenge; undefined leaves the default (or the anonymous user's). */
  signUpBotRiskScore?: number | undefined;
  /** The client's country, when known (a new user only; an upgraded anonymous user keeps theirs). */
  countryCode?: string | null;
}

export async function createOAuthUser(
  services: Services,
  tx: EventTx,
  project: ProjectRow,
  branchId: string,
  input: NewOAuthUser,
): Promise<UserRecord> {
  const { profile } = input;
  const displayName = storableDisplayName(profile.displayName);
  const profileImageUrl = profileImageUrlSchema.safeParse(profile.profileImageUrl).data ?? null;
  const emailSignsIn = input.emailSignsIn && profile.email !== null;
  // Locked and read again: another sign-up may have upgraded it (or it was deleted) since the flow began.
  const anonymous = input.anonymousUserId === null ? null : await lockAnonymousUser(tx, project, branchId, input.anonymousUserId);
  if (anonymous) {
    return upgradeAnonymousUser(tx, project, anonymous, {
      primaryEmail: profile.email,
      primaryEmailVerified: profile.emailVerified,
      primaryEmailAuthEnabled: emailSignsIn,
      passwordHash: null,
      displayName,
      profileImageUrl,
      ...(input.signUpBotRiskScore !== undefined ? { signUpBotRiskScore: input.signUpBotRiskScore } : {}),
    });
  }
  return createUser(tx, project, branchId, {
    signingUp: true,
    displayName,
    profileImageUrl,
    primaryEmail: profile.email,
    primaryEmailVerified: profile.emailVerified,
    primaryEmailAuthEnabled: emailSignsIn,
    ...(input.signUpBotRiskScore !== undefined ? { signUpBotRiskScore: input.signUpBotRiskScore } : {}),
    countryCode: input.countryCode ?? null,
    now: services.clock.date(),
  });
}

/** What the user object accepts: a provider's name may be blank or longer than a name may be here. */
function storableDisplayName(name: string | null): string | null {
  const trimmed = name?.trim() ?? "";
  if (trimmed === "") return null;
  const cut = trimmed.slice(0, DISPLAY_NAME_MAX_LENGTH);
  // Not half a character.
  return /[\uD800-\uDBFF]$/.test(cut) ? cut.slice(0, -1) : cut;
}
