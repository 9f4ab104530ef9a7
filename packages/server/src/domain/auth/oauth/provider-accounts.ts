/**
 * The /oauth-providers endpoints' side of a user's OAuth accounts: reading
 * them, adding one by hand (server), turning sign-in and connected-account
 * use on and off, removing one. Accounts of a provider the project no longer
 * has are left out, as if they were not there; they come back if the
 * provider does.
 *
 * Writes lock the user's row (channels.ts userExists with its lock), so one
 * user's accounts change one write at a time and the per-user rules are
 * checked against a settled state; between users the unique indexes decide,
 * and a violation becomes the same error the check gives.
 */
import {
  KnownErrors,
  StatusError,
  type ClientOAuthProviderJson,
  type OAuthProviderCreate,
  type ServerOAuthProviderJson,
  type ServerOAuthProviderPatch,
} from "@latchkey/shared";
import { and, asc, eq, ne } from "drizzle-orm";
import type { Db, DbOrTx } from "../../../db/connect.ts";
import { record, type Events } from "../../../events/transaction.ts";
import { isUniqueViolation, violatedConstraint } from "../../../db/errors.ts";
import { oauthAccounts, type OAuthAccountRow } from "../../../db/schema/index.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import { userExists } from "../../contact-channels/channels.ts";
import { hasOAuthProvider, type ProjectConfig } from "../../projects/config.ts";
import { findSignInAccount, insertAccount, listUserAccounts, updateAccount, userSignsInWithProvider } from "./account-rows.ts";

export function clientProviderAccountView(row: OAuthAccountRow): ClientOAuthProviderJson {
  return {
    allow_connected_accounts: row.allowConnectedAccounts,
    allow_sign_in: row.allowSignIn,
    ...(row.email === null ? {} : { email: row.email }),
    id: row.id,
    provider_config_id: row.providerConfigId,
    // Every provider entry is one of the built-in providers, named by its id.
    type: row.providerConfigId,
    user_id: row.userId,
  };
}

export function serverProviderAccountView(row: OAuthAccountRow): ServerOAuthProviderJson {
  return { account_id: row.providerAccountId, ...clientProviderAccountView(row) };
}

async function requireUser(db: DbOrTx, t: Tenancy, userId: string, lock: boolean): Promise<void> {
  if (!(await userExists(db, t, userId, lock))) throw new KnownErrors.UserNotFound();
}

/**
 * USER_NOT_FOUND unless the user is here; then their accounts, oldest first,
 * or (no user named) every user's. An account stays listed after its
 * provider leaves the project's config: it is still linked to the user.
 */
export async function listProviderAccounts(db: DbOrTx, t: Tenancy, userId: string | null): Promise<OAuthAccountRow[]> {
  if (userId === null) {
    return db.select().from(oauthAccounts).where(inTenancy(oauthAccounts, t)).orderBy(asc(oauthAccounts.createdAt), asc(oauthAccounts.id));
  }
  await requireUser(db, t, userId, false);
  return listUserAccounts(db, t, userId);
}

/** USER_NOT_FOUND unless the user is here; then their account, or 404 plain text. */
export async function requireProviderAccount(
  db: DbOrTx,
  config: ProjectConfig,
  t: Tenancy,
  userId: string,
  accountId: string,
  lock = false,
): Promise<OAuthAccountRow> {
  await requireUser(db, t, userId, lock);
  const [row] = await db
    .select()
    .from(oauthAccounts)
    .where(and(inTenancy(oauthAccounts, t), eq(oauthAccounts.userId, userId), eq(oauthAccounts.id, accountId)));
  if (!row || !hasOAuthProvider(config, row.providerConfigId)) {
    throw new StatusError(
      404,
      `OAuth provider account ${accountId} of user ${userId} not found. List the user's accounts with GET /oauth-providers?user_id=${userId}.`,
    );
  }
  return row;
}

export function createProviderAccount(
  db: Db,
  events: Events,
  config: ProjectConfig,
  t: Tenancy,
  body: OAuthProviderCreate & { user_id: string },
): Promise<OAuthAccountRow> {
  if (!hasOAuthProvider(config, body.provider_config_id)) {
    throw new StatusError(
      404,
      `OAuth provider ${body.provider_config_id} is not configured for this project. Add it to the project's oauth_providers first.`,
    );
  }
  return events.transaction(db, async (tx) => {
    await requireUser(tx, t, body.user_id, true);
    const wanted = {
      userId: body.user_id,
      providerConfigId: body.provider_config_id,
      providerAccountId: body.account_id,
      allowSignIn: body.allow_sign_in,
    };
    await checkAccountRules(tx, t, wanted, null);
    const row = await guarded(() =>
      insertAccount(tx, t, { ...wanted, email: body.email ?? null, allowConnectedAccounts: body.allow_connected_accounts }),
    );
    await record(tx, { type: "user.sign_in_methods_changed", ...t, data: { id: body.user_id } });
    return row;
  });
}

export function updateProviderAccount(
  db: Db,
  events: Events,
  config: ProjectConfig,
  t: Tenancy,
  userId: string,
  accountId: string,
  patch: ServerOAuthProviderPatch,
): Promise<OAuthAccountRow> {
  return events.transaction(db, async (tx) => {
    const row = await requireProviderAccount(tx, config, t, userId, accountId, true);
    const set = {
      ...(patch.allow_sign_in === undefined ? {} : { allowSignIn: patch.allow_sign_in }),
      ...(patch.allow_connected_accounts === undefined ? {} : { allowConnectedAccounts: patch.allow_connected_accounts }),
      ...(patch.email === undefined ? {} : { email: patch.email }),
      ...(patch.account_id === undefined ? {} : { providerAccountId: patch.account_id }),
    };
    if (Object.keys(set).length === 0) return row;
    await checkAccountRules(
      tx,
      t,
      {
        userId,
        providerConfigId: row.providerConfigId,
        providerAccountId: set.providerAccountId ?? row.providerAccountId,
        allowSignIn: set.allowSignIn ?? row.allowSignIn,
      },
      row.id,
    );
    const updated = await guarded(() => updateAccount(tx, t, row.id, set));
    await record(tx, { type: "user.sign_in_methods_changed", ...t, data: { id: userId } });
    return updated;
  });
}

/** Removes the account and, with it (cascade), its provider tokens. */
export function deleteProviderAccount(
  db: Db,
  events: Events,
  config: ProjectConfig,
  t: Tenancy,
  userId: string,
  accountId: string,
): Promise<void> {
  return events.transaction(db, async (tx) => {
    const row = await requireProviderAccount(tx, config, t, userId, accountId, true);
    await tx.delete(oauthAccounts).where(and(inTenancy(oauthAccounts, t), eq(oauthAccounts.id, row.id)));
    await record(tx, { type: "user.sign_in_methods_changed", ...t, data: { id: userId } });
  });
}

const SIGN_IN_ALREADY_ENABLED =
  "This user already signs in with another account of this provider. Turn off allow_sign_in on that account first.";
const ACCOUNT_ALREADY_ADDED = "This user already has this provider account. Change that account instead of adding it again.";

interface WantedAccount {
  userId: string;
  providerConfigId: string;
  providerAccountId: string;
  allowSignIn: boolean;
}

/**
 * The three rules, in this order, for the account as it would be (`exceptId`:
 * the row being changed, which does not count against itself): one sign-in
 * account per provider per user; a provider account once per user; a
 * provider account signs in to one user only.
 */
async function checkAccountRules(tx: DbOrTx, t: Tenancy, wanted: WantedAccount, exceptId: string | null): Promise<void> {
  if (wanted.allowSignIn && (await userSignsInWithProvider(tx, t, wanted.userId, wanted.providerConfigId, exceptId))) {
    throw new StatusError(400, SIGN_IN_ALREADY_ENABLED);
  }
  const sameAccount = await tx
    .select({ id: oauthAccounts.id })
    .from(oauthAccounts)
    .where(
      and(
        inTenancy(oauthAccounts, t),
        eq(oauthAccounts.userId, wanted.userId),
        eq(oauthAccounts.providerConfigId, wanted.providerConfigId),
        eq(oauthAccounts.providerAccountId, wanted.providerAccountId),
        exceptId === null ? undefined : ne(oauthAccounts.id, exceptId),
      ),
    );
  if (sameAccount.length > 0) throw new StatusError(400, ACCOUNT_ALREADY_ADDED);
  if (wanted.allowSignIn) {
    const signIn = await findSignInAccount(tx, t, wanted.providerConfigId, wanted.providerAccountId);
    if (signIn && signIn.id !== exceptId) throw new KnownErrors.OAuthProviderAccountIdAlreadyUsedForSignIn();
  }
}

/** A write that raced another user's (the user's own writes take turns), its violation reported as the rule it broke. */
async function guarded<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    switch (violatedConstraint(error)) {
      case "oauth_accounts_sign_in_account_unique":
        throw new KnownErrors.OAuthProviderAccountIdAlreadyUsedForSignIn();
      case "oauth_accounts_sign_in_per_user_unique":
        throw new StatusError(400, SIGN_IN_ALREADY_ENABLED);
      case "oauth_accounts_user_account_unique":
        throw new StatusError(400, ACCOUNT_ALREADY_ADDED);
      default:
        throw error;
    }
  }
}
