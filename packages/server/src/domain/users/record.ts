/**
 * A user as the rest of the server sees it: the row plus its primary e-mail,
 * selected team and OAuth provider accounts, loaded in one query.
 */
import type { RestrictedReasonJson, UserOAuthProviderJson } from "@latchkey/shared";
import { and, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { preparedPerDatabase } from "../../db/prepared.ts";
import { contactChannels, oauthAccounts, teams, users, type UserRow, type TeamRow } from "../../db/schema/index.ts";
import { inTenancy, preparedInTenancy } from "../../db/tenancy.ts";

export interface UserRecord extends UserRow {
  primaryEmail: string | null;
  primaryEmailVerified: boolean;
  primaryEmailAuthEnabled: boolean;
  selectedTeam: TeamRow | null;
  /** The user's OAuth provider accounts as the user object lists them, oldest first. */
  oauthProviders: UserOAuthProviderJson[];
}

/**
 * A subquery in the user's own row rather than a second query per read: the
 * accounts cost one probe of oauth_accounts_user_idx in the same round trip,
 * and a list of users (users/list.ts, teams/profiles.ts) stays one query
 * whatever its length. Most users have no account, so the probe finds nothing.
 */
const oauthProvidersOfUser = sql<UserOAuthProviderJson[]>`coalesce((
  select json_agg(json_build_object(
    'account_id', ${oauthAccounts.providerAccountId},
    'email', ${oauthAccounts.email},
    'id', ${oauthAccounts.providerConfigId}
  ) order by ${oauthAccounts.createdAt}, ${oauthAccounts.id})
  from ${oauthAccounts} where ${oauthAccounts.userId} = ${users.id}
), '[]'::json)`.mapWith((value: unknown) => (typeof value === "string" ? JSON.parse(value) : value) as UserOAuthProviderJson[]);

export const userRecordColumns = {
  user: users,
  primaryEmail: contactChannels.value,
  primaryEmailVerified: contactChannels.isVerified,
  primaryEmailAuthEnabled: contactChannels.usedForAuth,
  selectedTeam: teams,
  oauthProviders: oauthProvidersOfUser,
};

export function userRecordQuery(db: DbOrTx) {
  return db
    .select(userRecordColumns)
    .from(users)
    .leftJoin(
      contactChannels,
      and(eq(contactChannels.userId, users.id), eq(contactChannels.isPrimary, true), eq(contactChannels.type, "email")),
    )
    .leftJoin(teams, eq(teams.id, users.selectedTeamId));
}

export type UserRecordRow = Awaited<ReturnType<ReturnType<typeof userRecordQuery>["execute"]>>[number];

export function toUserRecord(row: UserRecordRow): UserRecord {
  return {
    ...row.user,
    primaryEmail: row.primaryEmail ?? null,
    primaryEmailVerified: row.primaryEmailVerified ?? false,
    primaryEmailAuthEnabled: row.primaryEmailAuthEnabled ?? false,
    selectedTeam: row.selectedTeam ?? null,
    oauthProviders: row.oauthProviders,
  };
}

const userById = preparedPerDatabase((db) =>
  userRecordQuery(db)
    .where(and(preparedInTenancy(users), eq(users.id, sql.placeholder("userId"))))
    .prepare("user_by_id"),
);

export async function findUser(db: DbOrTx, projectId: string, branchId: string, userId: string): Promise<UserRecord | null> {
  const rows = await userById(db).execute({ projectId, branchId, userId });
  return rows[0] ? toUserRecord(rows[0]) : null;
}

/** The channel a user signs in with at this address, compared case-insensitively (the unique index does the same). */
export function isAuthEmail(projectId: string, branchId: string, email: string) {
  return and(
    inTenancy(contactChannels, { projectId, branchId }),
    eq(contactChannels.type, "email"),
    eq(contactChannels.usedForAuth, true),
    sql`lower(${contactChannels.value}) = lower(${email})`,
  );
}

/** Finds the user who signs in with this e-mail (case-insensitive). */
export async function findUserIdByAuthEmail(
  db: DbOrTx,
  projectId: string,
  branchId: string,
  email: string,
): Promise<{ userId: string; passwordHash: string | null } | null> {
  const rows = await db
    .select({ userId: users.id, passwordHash: users.passwordHash })
    .from(contactChannels)
    .innerJoin(users, eq(users.id, contactChannels.userId))
    .where(isAuthEmail(projectId, branchId, email))
    .limit(1);
  return rows[0] ?? null;
}

/** The sign-in channel of this address (case-insensitive), whoever owns it, and the address as stored. */
export async function findAuthEmailChannel(
  db: DbOrTx,
  projectId: string,
  branchId: string,
  email: string,
): Promise<{ id: string; userId: string; value: string; isVerified: boolean } | null> {
  const [row] = await db
    .select({
      id: contactChannels.id,
      userId: contactChannels.userId,
      value: contactChannels.value,
      isVerified: contactChannels.isVerified,
    })
    .from(contactChannels)
    .where(isAuthEmail(projectId, branchId, email))
    .limit(1);
  return row ?? null;
}

export function restrictedReason(
  user: Pick<UserRecord, "isAnonymous" | "primaryEmailVerified" | "restrictedByAdmin">,
  requireEmailVerification: boolean,
): RestrictedReasonJson | null {
  if (user.isAnonymous) return { type: "anonymous" };
  if (requireEmailVerification && !user.primaryEmailVerified) return { type: "email_not_verified" };
  if (user.restrictedByAdmin) return { type: "restricted_by_administrator" };
  return null;
}
