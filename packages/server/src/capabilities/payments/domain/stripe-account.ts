/**
 * A project's Stripe account (account-schema.ts): made and onboarded through
 * the operator's platform (Connect), or the project's own account reached with
 * its own secret key. Whichever it is, its state (may it charge, has it given
 * its details, may it be paid out) is kept as Stripe last said it.
 */
import { KnownErrors, StatusError, type StripeAccountInfoJson, type StripeOwnKeyBody } from "@latchkey/shared";
import { and, eq, ne } from "drizzle-orm";
import type { Db, DbOrTx } from "../../../db/connect.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import { StripeKeyRefused, StripeUnavailable, type StripeAccountState, type StripeApi } from "../../../integrations/stripe/api.ts";
import type { Services } from "../../../services.ts";
import { openUnder, rewrapUnder, sealUnder } from "../../data-vault/domain/envelope.ts";
import type { Sealer } from "../../data-vault/domain/sealer.ts";
import { paymentStripeAccounts, type PaymentStripeAccountRow } from "../account-schema.ts";

/** What an own-key account keeps sealed. */
export interface StripeOwnSecrets {
  secretKey: string;
  webhookSecret: string;
  /** The account's publishable key, for the purchase page; null when it was not given. */
  publishableKey: string | null;
}

const NO_PLATFORM =
  "Stripe Connect is not available on this server (its operator has not set LATCHKEY_STRIPE_SECRET_KEY). Set the project's own Stripe secret key instead.";
const OWN_KEY_NO_CONNECT =
  "This project takes payments with its own Stripe account (its own secret key), not a Stripe Connect account: manage it in the Stripe dashboard.";
const UNAVAILABLE = "Stripe did not answer as expected. Please try again in a moment.";

/** The associated data of an own key's seal: the place it belongs to (no data vault value's context looks like it). */
function secretsContext(tenancy: Tenancy): string {
  return JSON.stringify(["latchkey-payments-stripe-own-key", tenancy.projectId, tenancy.branchId]);
}

export async function stripeAccountOf(db: DbOrTx, tenancy: Tenancy): Promise<PaymentStripeAccountRow | null> {
  const [row] = await db.select().from(paymentStripeAccounts).where(inTenancy(paymentStripeAccounts, tenancy));
  return row ?? null;
}

/** The own key and webhook secret of an `own_key` account; throws for another kind. */
export async function ownSecretsOf(services: Services, row: PaymentStripeAccountRow): Promise<StripeOwnSecrets> {
  if (row.kind !== "own_key" || !row.keyId || !row.wrappedDataKey || !row.sealedSecrets)
    throw new Error(`The Stripe account of project ${row.projectId} has no own key`);
  const json = await openUnder(services.dataVaultSealer, secretsContext(row), {
    dataKey: { keyId: row.keyId, wrapped: row.wrappedDataKey },
    sealed: row.sealedSecrets,
  });
  const parsed = JSON.parse(json) as { secret_key: string; webhook_secret: string; publishable_key?: string };
  return { secretKey: parsed.secret_key, webhookSecret: parsed.webhook_secret, publishableKey: parsed.publishable_key ?? null };
}

/** The calls that reach the account: the platform's for a connected account, the project's own key's otherwise. */
async function apiFor(services: Services, row: PaymentStripeAccountRow): Promise<StripeApi | null> {
  if (row.kind === "connect") return services.stripe.platform;
  return services.stripe.withKey((await ownSecretsOf(services, row)).secretKey);
}

export function accountInfoView(
  row: Pick<PaymentStripeAccountRow, "stripeAccountId" | "chargesEnabled" | "detailsSubmitted" | "payoutsEnabled">,
): StripeAccountInfoJson {
  return {
    account_id: row.stripeAccountId,
    charges_enabled: row.chargesEnabled,
    details_submitted: row.detailsSubmitted,
    payouts_enabled: row.payoutsEnabled,
  };
}

const stateColumns = (state: StripeAccountState) => ({
  chargesEnabled: state.chargesEnabled,
  detailsSubmitted: state.detailsSubmitted,
  payoutsEnabled: state.payoutsEnabled,
});

/** Stores what Stripe says of the tenancy's account now, if it is still that account. */
export async function storeAccountState(db: DbOrTx, tenancy: Tenancy, state: StripeAccountState, now: Date): Promise<void> {
  await db
    .update(paymentStripeAccounts)
    .set({ ...stateColumns(state), updatedAt: now })
    .where(and(inTenancy(paymentStripeAccounts, tenancy), eq(paymentStripeAccounts.stripeAccountId, state.id)));
}

/** Turns the integration's failures into answers: an outage is the server's gateway failing, not the admin's request. */
async function stripeCall<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof StripeUnavailable) throw new StatusError(502, UNAVAILABLE);
    throw error;
  }
}

/**
 * The onboarding page of the project's connected account, which is made on the first call (the same account
 * is onboarded on every later one, until its details are all given). Stripe sends the admin back to the
 * project's payments page in the dashboard.
 */
export async function connectOnboardingUrl(services: Services, tenancy: Tenancy): Promise<string> {
  const platform = services.stripe.platform;
  if (!platform) throw new StatusError(400, NO_PLATFORM);
  let row = await stripeAccountOf(services.db, tenancy);
  if (row?.kind === "own_key") throw new StatusError(400, OWN_KEY_NO_CONNECT);
  if (!row) {
    // Two setups at once ask with the same key, and Stripe makes one account for both.
    const account = await stripeCall(() =>
      platform.createConnectedAccount(
        { latchkey_project_id: tenancy.projectId, latchkey_branch_id: tenancy.branchId },
        `latchkey-connect-account-${tenancy.projectId}-${tenancy.branchId}`,
      ),
    );
    const now = services.clock.date();
    await services.db
      .insert(paymentStripeAccounts)
      .values({ ...tenancy, kind: "connect", stripeAccountId: account.id, ...stateColumns(account), createdAt: now, updatedAt: now })
      .onConflictDoNothing();
    // A concurrent setup may have stored its account first: that one is the project's.
    row = (await stripeAccountOf(services.db, tenancy))!;
    if (row.kind === "own_key") throw new StatusError(400, OWN_KEY_NO_CONNECT);
  }
  const returnUrl = new URL(`/projects/${encodeURIComponent(tenancy.projectId)}/payments`, services.config.apiUrl).toString();
  const accountId = row.stripeAccountId;
  return stripeCall(() => platform.createOnboardingLink(accountId, returnUrl));
}

/**
 * The account's state as Stripe says it now (and stored so); what was stored last when Stripe cannot be
 * asked (the platform key was removed, or Stripe is out).
 */
export async function stripeAccountInfo(services: Services, tenancy: Tenancy): Promise<StripeAccountInfoJson> {
  const row = await stripeAccountOf(services.db, tenancy);
  if (!row) throw new KnownErrors.StripeAccountInfoNotFound();
  const api = await apiFor(services, row);
  if (!api) return accountInfoView(row);
  let state: StripeAccountState;
  try {
    state = row.kind === "connect" ? await api.retrieveAccount(row.stripeAccountId) : await api.retrieveAccount();
  } catch (error) {
    if (!(error instanceof StripeUnavailable) && !(error instanceof StripeKeyRefused)) throw error;
    services.logger.warn({ projectId: tenancy.projectId, reason: error.message }, "Stripe account state could not be refreshed");
    return accountInfoView(row);
  }
  await storeAccountState(services.db, tenancy, state, services.clock.date());
  return accountInfoView({ ...row, stripeAccountId: state.id, ...stateColumns(state) });
}

/** A session of Stripe's embedded components, for the project's connected account only. */
export async function stripeAccountSession(services: Services, tenancy: Tenancy): Promise<string> {
  const row = await stripeAccountOf(services.db, tenancy);
  if (!row) throw new StatusError(400, "Stripe account ID is not set");
  if (row.kind === "own_key") throw new StatusError(400, OWN_KEY_NO_CONNECT);
  const platform = services.stripe.platform;
  if (!platform) throw new StatusError(400, NO_PLATFORM);
  return stripeCall(() => platform.createAccountSession(row.stripeAccountId));
}

/**
 * Makes the project take payments with its own Stripe account: the key is tried first (Stripe must accept it
 * and name its account), then kept sealed with the webhook secret, replacing whatever account the project had.
 */
export async function setOwnStripeKey(services: Services, tenancy: Tenancy, body: StripeOwnKeyBody): Promise<StripeAccountInfoJson> {
  let state: StripeAccountState;
  try {
    state = await stripeCall(() => services.stripe.withKey(body.secret_key).retrieveAccount());
  } catch (error) {
    if (error instanceof StripeKeyRefused) throw new StatusError(400, `Stripe refused this secret key: ${error.message}`);
    throw error;
  }
  const sealed = await sealUnder(
    services.dataVaultSealer,
    secretsContext(tenancy),
    // The publishable key is no secret, but it belongs with the key it pairs with: kept, and replaced, together.
    JSON.stringify({ secret_key: body.secret_key, webhook_secret: body.webhook_secret, publishable_key: body.publishable_key }),
  );
  const now = services.clock.date();
  const stored = {
    kind: "own_key" as const,
    stripeAccountId: state.id,
    ...stateColumns(state),
    keyId: sealed.dataKey.keyId,
    wrappedDataKey: sealed.dataKey.wrapped,
    sealedSecrets: sealed.sealed,
    updatedAt: now,
  };
  await services.db
    .insert(paymentStripeAccounts)
    .values({ ...tenancy, ...stored, createdAt: now })
    .onConflictDoUpdate({ target: [paymentStripeAccounts.projectId, paymentStripeAccounts.branchId], set: stored });
  return accountInfoView({ stripeAccountId: state.id, ...stateColumns(state) });
}

/**
 * `latchkey vault-rotate`'s share for the own keys: each one's data key still under another key-encryption key
 * than the sealer's current one is re-wrapped under it (the sealed secrets stay as they are). A row replaced
 * meanwhile is left as its writer left it (the update applies only to the data key that was re-wrapped): a new
 * write is under the current key already. Throws UnknownKeyEncryptionKeyError for a key no longer configured.
 */
export async function rotateStripeOwnKeys(db: Db, sealer: Sealer): Promise<number> {
  const t = paymentStripeAccounts;
  // tenancy: a rotation re-wraps the own keys of every project and branch
  const rows = await db
    .select({ projectId: t.projectId, branchId: t.branchId, keyId: t.keyId, wrapped: t.wrappedDataKey })
    .from(t)
    .where(and(eq(t.kind, "own_key"), ne(t.keyId, sealer.currentKeyId)));
  let rewrapped = 0;
  for (const row of rows) {
    if (!row.keyId || !row.wrapped) continue;
    const key = await rewrapUnder(sealer, secretsContext(row), { keyId: row.keyId, wrapped: row.wrapped });
    const updated = await db
      .update(t)
      .set({ keyId: key.keyId, wrappedDataKey: key.wrapped })
      .where(and(inTenancy(t, row), eq(t.keyId, row.keyId), eq(t.wrappedDataKey, row.wrapped)))
      .returning({ keyId: t.keyId });
    rewrapped += updated.length;
  }
  return rewrapped;
}
