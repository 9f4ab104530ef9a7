/**
 * The ES256 key pairs that sign access tokens. Created once (by whichever
 * replica starts first) and shared through the database; each audience kind
 * has two published keys, of which slot 0 signs, so a later rotation can
 * promote slot 1 without invalidating live tokens.
 */
import type { JwkJson } from "@latchkey/shared";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { and, eq } from "drizzle-orm";
import { createPrivateKey, createPublicKey, type JsonWebKey, type KeyObject } from "node:crypto";
import type { Db } from "../../db/connect.ts";
import { signingKeys } from "../../db/schema/index.ts";
import { decryptWithSecret, encryptWithSecret, randomCode } from "../../lib/secrets.ts";

export type AudienceKind = "regular" | "anonymous" | "restricted";
export const AUDIENCE_KINDS: AudienceKind[] = ["regular", "restricted", "anonymous"];
const SLOTS = [0, 1];
const PURPOSE = "signing-key";

export type PublicJwk = JwkJson;

export interface KeyStore {
  signingKey(kind: AudienceKind): { kid: string; key: KeyObject };
  /** The verification key for a kid, with the audience kind it belongs to. */
  verificationKey(kid: string): { kind: AudienceKind; key: KeyObject } | undefined;
  publicJwks(kind: AudienceKind): PublicJwk[];
}

export async function loadKeyStore(db: Db, serverSecret: string): Promise<KeyStore> {
  for (const kind of AUDIENCE_KINDS) {
    for (const slot of SLOTS) {
      const existing = await db
        .select({ kid: signingKeys.kid })
        .from(signingKeys)
        .where(and(eq(signingKeys.audienceKind, kind), eq(signingKeys.slot, slot)));
      if (existing.length > 0) continue;
      const { publicKey, privateKey } = await generateKeyPair("ES256", { extractable: true });
      const kid = randomCode(12);
      const publicJwk = { ...(await exportJWK(publicKey)), alg: "ES256", kid } as unknown as Record<string, string>;
      const privateJwk = JSON.stringify(await exportJWK(privateKey));
      // Another replica may win the race; the unique (kind, slot) index keeps one.
      await db
        .insert(signingKeys)
        .values({
          kid,
          audienceKind: kind,
          slot,
          publicJwk,
          encryptedPrivateJwk: encryptWithSecret(serverSecret, PURPOSE, privateJwk),
        })
        .onConflictDoNothing();
    }
  }
  const rows = await db.select().from(signingKeys);
  const signers = new Map<AudienceKind, { kid: string; key: KeyObject }>();
  const verifiers = new Map<string, { kind: AudienceKind; key: KeyObject }>();
  const published = new Map<AudienceKind, PublicJwk[]>();
  for (const row of rows.sort((a, b) => a.slot - b.slot)) {
    const { kid, audienceKind: kind } = row;
    const publicKey = createPublicKey({ key: row.publicJwk as JsonWebKey, format: "jwk" });
    verifiers.set(kid, { kind, key: publicKey });
    const { x, y } = row.publicJwk;
    published.set(kind, [...(published.get(kind) ?? []), { alg: "ES256", crv: "P-256", kid, kty: "EC", x: x!, y: y! }]);
    if (row.slot === 0) {
      let privateJwk: JWK;
      try {
        privateJwk = JSON.parse(decryptWithSecret(serverSecret, PURPOSE, row.encryptedPrivateJwk)) as JWK;
      } catch {
        throw new Error("Cannot decrypt the token signing keys: STACK_SERVER_SECRET differs from the one they were created with.");
      }
      signers.set(kind, { kid, key: createPrivateKey({ key: privateJwk as JsonWebKey, format: "jwk" }) });
    }
  }
  return {
    signingKey: (kind) => signers.get(kind)!,
    verificationKey: (kid) => verifiers.get(kid),
    publicJwks: (kind) => published.get(kind) ?? [],
  };
}
