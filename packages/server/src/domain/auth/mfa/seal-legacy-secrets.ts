/**
 * TOTP secrets were once stored as the client sent them. At start-up each
 * such secret is encrypted into totp_secret_sealed and the plaintext cleared,
 * one row at a time, so a server of this version never keeps a readable
 * second factor. Replicas starting together may both take a row: the
 * condition on the plaintext makes the second update a no-op.
 */
import { and, eq, isNotNull } from "drizzle-orm";
import type { Db } from "../../../db/connect.ts";
import { users } from "../../../db/schema/index.ts";
import { sealTotpSecret } from "./totp.ts";

export async function sealLegacyTotpSecrets(db: Db, serverSecret: string): Promise<number> {
  // tenancy: a start-up migration of every project's users, one row at a time by id
  const rows = await db
    .select({ id: users.id, secret: users.legacyTotpSecretBase64 })
    .from(users)
    .where(isNotNull(users.legacyTotpSecretBase64));
  for (const row of rows) {
    // tenancy: the row found above, by its id (unique across tenancies)
    await db
      .update(users)
      .set({ totpSecretSealed: sealTotpSecret(serverSecret, row.secret!), legacyTotpSecretBase64: null })
      .where(and(eq(users.id, row.id), eq(users.legacyTotpSecretBase64, row.secret!)));
  }
  return rows.length;
}
