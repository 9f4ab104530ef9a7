/**
 * Workflow tokens: what a run calls the API back with (`x-stack-workflow-token`, checked by http/auth.ts in place
 * of the secret server key). Random, stored as a digest, bound to one project and one run, living
 * WORKFLOW_TOKEN_LIFETIME_MILLIS by the server's clock, and deleted when the run ends.
 */
import { KnownErrors, WORKFLOW_TOKEN_LIFETIME_MILLIS } from "@latchkey/shared";
import { eq, lt } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { randomCode, sha256Hex } from "../../../lib/secrets.ts";
import type { Services } from "../../../services.ts";
import { workflowTokens } from "../schema.ts";

/** A new token for `runId`: the value is handed to the run, only its digest is kept. */
export async function mintWorkflowToken(services: Services, projectId: string, runId: string): Promise<string> {
  const token = randomCode();
  const expiresAt = new Date(services.clock.now() + WORKFLOW_TOKEN_LIFETIME_MILLIS);
  await services.db.insert(workflowTokens).values({ digest: sha256Hex(token), projectId, runId, expiresAt });
  return token;
}

/**
 * Whether `token` grants server access to `projectId` now. A token of another project is as unknown as one never
 * minted: it says nothing about the project it belongs to.
 */
export async function checkWorkflowToken(services: Services, projectId: string, token: string): Promise<void> {
  const [row] = await services.db
    .select()
    .from(workflowTokens)
    .where(eq(workflowTokens.digest, sha256Hex(token)));
  if (!row || row.projectId !== projectId) throw new KnownErrors.WorkflowTokenDoesNotExist();
  if (row.expiresAt.getTime() <= services.clock.now()) throw new KnownErrors.WorkflowTokenExpired();
}

/** Ends a run's token (its run is over). */
export async function revokeWorkflowToken(services: Services, token: string): Promise<void> {
  await services.db.delete(workflowTokens).where(eq(workflowTokens.digest, sha256Hex(token)));
}

/** Housekeeping: tokens expired for a day (a run whose replica died before it could delete its token). */
export async function deleteExpiredWorkflowTokens(db: DbOrTx, now: Date): Promise<number> {
  // tenancy: housekeeping sweeps every project's expired tokens
  const deleted = await db
    .delete(workflowTokens)
    .where(lt(workflowTokens.expiresAt, new Date(now.getTime() - 24 * 3600 * 1000)))
    .returning({ digest: workflowTokens.digest });
  return deleted.length;
}
