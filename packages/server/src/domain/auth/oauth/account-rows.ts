/**
 * Reading and writing oauth_accounts rows, always within one project and
 * branch. The partial unique indexes of db/schema/oauth.ts hold the rules
 * (one sign-in account per provider per user; a provider account signs in to
 * one user); these helpers only look before writing, so a caller can answer
 * with the right error or flag instead of a violation.
 */
import { and, asc, eq, ne } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { oauthAccounts, type OAuthAccountRow } from "../../../db/schema/index.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import { userExists } from "../../contact-channels/channels.ts";

/**
 * Locks the user's row (false: no such user here), so one user's account
 * writes take turns and "does the user already sign in with this provider"
 * stays true until the write that relies on it commits.
 */
export function lockAccountOwner(db: DbOrTx, t: Tenancy, userId: string): Promise<boolean> {
  return userExists(db, t, userId, true);
}

/** The account that signs in with this provider account, whoever's it is. */
export async function findSignInAccount(
  db: DbOrTx,
  t: Tenancy,
  providerConfigId: string,
  providerAccountId: string,
): Promise<OAuthAccountRow | null> {
  const [row] = await db
    .select()
    .from(oauthAccounts)
    .where(
      and(
        inTenancy(oauthAccounts, t),
        eq(oauthAccounts.providerConfigId, providerConfigId),
        eq(oauthAccounts.providerAccountId, providerAccountId),
        eq(oauthAccounts.allowSignIn, true),
      ),
    );
  return row ?? null;
}

/** This user's row for this provider account, whatever its flags. */
export async function findUserAccount(
  db: DbOrTx,
  t: Tenancy,
  userId: string,
  providerConfigId: string,
  providerAccountId: string,
): Promise<OAuthAccountRow | null> {
  const [row] = await db
    .select()
    .from(oauthAccounts)
    .where(
      and(
        inTenancy(oauthAccounts, t),
        eq(oauthAccounts.userId, userId),
        eq(oauthAccounts.providerConfigId, providerConfigId),
        eq(oauthAccounts.providerAccountId, providerAccountId),
      ),
    );
  return row ?? null;
}

/** Whether the user already signs in with (another) account of this provider. */
export async function userSignsInWithProvider(
  db: DbOrTx,
  t: Tenancy,
  userId: string,
  providerConfigId: string,
  exceptId: string | null = null,
): Promise<boolean> {
  const rows = await db
    .select({ id: oauthAccounts.id })
    .from(oauthAccounts)
    .where(
      and(
        inTenancy(oauthAccounts, t),
        eq(oauthAccounts.userId, userId),
        eq(oauthAccounts.providerConfigId, providerConfigId),
        eq(oauthAccounts.allowSignIn, true),
        exceptId === null ? undefined : ne(oauthAccounts.id, exceptId),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

export interface NewOAuthAccount {
  userId: string;
  providerConfigId: string;
  providerAccountId: string;
  email: string | null;
  allowSignIn: boolean;
  allowConnectedAccounts: boolean;
}

export async function insertAccount(db: DbOrTx, t: Tenancy, account: NewOAuthAccount): Promise<OAuthAccountRow> {
  const [row] = await db
    .insert(oauthAccounts)
    .values({ ...t, ...account })
    .returning();
  return row!;
}

export async function updateAccount(
  db: DbOrTx,
  t: Tenancy,
  id: string,
  set: Partial<Pick<OAuthAccountRow, "email" | "providerAccountId" | "allowSignIn" | "allowConnectedAccounts">>,
): Promise<OAuthAccountRow> {
  const [row] = await db
    .update(oauthAccounts)
    .set(set)
    .where(and(inTenancy(oauthAccounts, t), eq(oauthAccounts.id, id)))
    .returning();
  return row!;
}

/** The user's accounts, oldest first (as the user object lists them). */
export function listUserAccounts(db: DbOrTx, t: Tenancy, userId: string): Promise<OAuthAccountRow[]> {
  return db
    .select()
    .from(oauthAccounts)
    .where(and(inTenancy(oauthAccounts, t), eq(oauthAccounts.userId, userId)))
    .orderBy(asc(oauthAccounts.createdAt), asc(oauthAccounts.id));
}
