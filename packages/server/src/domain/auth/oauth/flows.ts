/**
 * An OAuth sign-in between our authorize endpoint and the provider's return
 * to our callback (oauth_flows): what the app asked for, and our own PKCE
 * verifier towards the provider, sealed with the server secret. A flow is
 * found by the digest of the state we gave the provider and taken (deleted)
 * by the callback, so it is used once; it lives 10 minutes, as does the
 * browser cookie that ties it to the browser that started it.
 */
import { eq, inArray, lt } from "drizzle-orm";
import type { Db, DbOrTx } from "../../../db/connect.ts";
import { oauthFlows } from "../../../db/schema/index.ts";
import { decryptWithSecret, encryptWithSecret, sha256Hex } from "../../../lib/secrets.ts";
import type { BotChallengeOutcome } from "../../bot-challenge/verify.ts";
import type { Tenancy } from "../../../db/tenancy.ts";

export const OAUTH_FLOW_LIFETIME_MILLIS = 10 * 60 * 1000;
/** The browser cookie `<prefix><state>` (value `true`) ties a flow to the browser that started it. */
export const OAUTH_INNER_COOKIE_PREFIX = "stack-oauth-inner-";
const VERIFIER_PURPOSE = "oauth-flow-code-verifier";
/** How long past its expiry a flow is kept: a late callback still hears "timed out" rather than "invalid state". */
export const EXPIRED_FLOW_RETENTION_MILLIS = 24 * 3600 * 1000;
const BATCH = 1000;

/** Stored as JSON, snake_case like the other stored documents. */
export interface OAuthFlowData {
  provider_id: string;
  /** The app's publishable key (public by design), checked again at the callback; null: the public-client sentinel. */
  publishable_client_key: string | null;
  type: "authenticate" | "link";
  /** The user of the authorize request's token: the one to link to, or an anonymous user to upgrade. */
  user_id: string | null;
  /** The app's: where the code goes (without its #fragment), its state and PKCE challenge. */
  redirect_uri: string;
  state: string;
  code_challenge: string;
  provider_scope: string | null;
  error_redirect_url: string | null;
  after_callback_redirect_url: string | null;
  response_mode: "redirect" | "json";
  bot_challenge: BotChallengeOutcome;
  /** Our PKCE verifier towards the provider, sealed. */
  inner_code_verifier_sealed: string;
}

export interface OAuthFlow extends Tenancy {
  /** The state we gave the provider (also the name of the browser's cookie). */
  innerState: string;
  innerCodeVerifier: string;
  expiresAt: Date;
  data: OAuthFlowData;
}

export async function saveFlow(
  db: DbOrTx,
  serverSecret: string,
  flow: Omit<OAuthFlow, "data"> & { data: Omit<OAuthFlowData, "inner_code_verifier_sealed"> },
): Promise<void> {
  const data: OAuthFlowData = {
    ...flow.data,
    inner_code_verifier_sealed: encryptWithSecret(serverSecret, VERIFIER_PURPOSE, flow.innerCodeVerifier),
  };
  await db.insert(oauthFlows).values({
    projectId: flow.projectId,
    branchId: flow.branchId,
    stateHash: sha256Hex(flow.innerState),
    data,
    expiresAt: flow.expiresAt,
  });
}

/** Deletes and returns the flow of this state (expired or not: the caller tells the user it timed out); null if there is none. */
export async function takeFlow(db: Db, serverSecret: string, innerState: string): Promise<OAuthFlow | null> {
  // tenancy: the state is a random secret held only by this flow's browser, and names its tenancy
  const [row] = await db
    .delete(oauthFlows)
    .where(eq(oauthFlows.stateHash, sha256Hex(innerState)))
    .returning();
  if (!row) return null;
  const data = row.data as OAuthFlowData;
  return {
    projectId: row.projectId,
    branchId: row.branchId,
    innerState,
    innerCodeVerifier: decryptWithSecret(serverSecret, VERIFIER_PURPOSE, data.inner_code_verifier_sealed),
    expiresAt: row.expiresAt,
    data,
  };
}

/**
 * Anyone may start a flow (authorize needs no user), so expired ones are
 * swept (housekeeping), a batch at a time; returns how many.
 */
export async function deleteExpiredFlows(db: Db, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - EXPIRED_FLOW_RETENTION_MILLIS);
  let deleted = 0;
  for (;;) {
    // tenancy: housekeeping deletes expired flows of every project
    const batch = db.select({ id: oauthFlows.id }).from(oauthFlows).where(lt(oauthFlows.expiresAt, cutoff)).limit(BATCH);
    // tenancy: the rows of the batch above, by id
    const rows = await db.delete(oauthFlows).where(inArray(oauthFlows.id, batch)).returning({ id: oauthFlows.id });
    deleted += rows.length;
    if (rows.length < BATCH) return deleted;
  }
}
