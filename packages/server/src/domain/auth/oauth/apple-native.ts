/**
 * POST /auth/oauth/callback/apple/native: an app signs the user in with the
 * ID token Apple's native Sign in with Apple gave it on the device. The token
 * must be Apple's, for one of the project's bundle ids (its `apple` provider's
 * `apple_bundle_ids`), and unexpired; then the user is found, linked or
 * created as in every OAuth sign-in (accounts.ts), without provider tokens.
 */
import { KnownErrors, StatusError } from "@latchkey/shared";
import { verifyAppleIdToken } from "../../../integrations/oauth/apple-id-token.ts";
import { appleProfile } from "../../../integrations/oauth/providers/apple.ts";
import type { Services } from "../../../services.ts";
import type { ProjectRow } from "../../projects/project-row.ts";
import { completeSignIn, signedInOrMfaRequired, type SignedIn } from "../complete-sign-in.ts";
import { signInOrLinkWithProvider } from "./accounts.ts";

export interface AppleNativeSignIn {
  project: ProjectRow;
  branchId: string;
  idToken: string;
  /** Whether a new user may be created (sign-up on, or not a client request). */
  signUpAllowed: boolean;
  ip: string | null;
  countryCode: string | null;
}

export async function signInWithAppleIdToken(services: Services, input: AppleNativeSignIn): Promise<SignedIn> {
  const { project, branchId } = input;
  const entry = project.config.oauth_providers.find((provider) => provider.id === "apple");
  const bundleIds = entry?.apple_bundle_ids ?? [];
  // Without bundle ids no app may sign in natively: the provider is, to such an app, not enabled.
  if (!entry || bundleIds.length === 0) throw new KnownErrors.OAuthProviderNotFoundOrNotEnabled();
  let claims;
  try {
    claims = await verifyAppleIdToken(services.config.appleJwksUrl, input.idToken, bundleIds, services.clock.date());
  } catch {
    throw new StatusError(503, "Apple's sign-in keys could not be fetched. Please try again.");
  }
  if (claims === null) throw new KnownErrors.InvalidIdToken();
  const profile = appleProfile(claims);
  const outcome = await services.events.transaction(services.db, async (tx) => {
    const { user, isNewUser } = await signInOrLinkWithProvider(services, tx, project, branchId, {
      providerConfigId: entry.id,
      profile,
      tokens: null,
      type: "authenticate",
      userId: null,
      signUpAllowed: input.signUpAllowed,
      countryCode: input.countryCode,
    });
    return completeSignIn(services, tx, project, user, { isNewUser, ip: input.ip });
  });
  return signedInOrMfaRequired(outcome);
}
