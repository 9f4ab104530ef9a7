/**
 * The ES256 key pairs that sign access tokens. Created once (by whichever
 * replica starts first) and shared through the database; each audience kind
 * has two published keys, of which slot 0 signs, so a later rotation can
 * promote slot 1 without invalidating live tokens.
 */
import type { JwkJson } from "@latchkey/shared";
import { createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from "node:crypto";
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
  let rows = await db.select().from(signingKeys);
  const missing = AUDIENCE_KINDS.flatMap((kind) =>
    SLOTS.filter((slot) => !rows.some((r) => r.audienceKind === kind && r.slot === slot)).map((slot) => ({ kind, slot })),
  );
  if (missing.length > 0) {
    // Another replica may win the race; the unique (kind, slot) index keeps one, and the rows are read again.
    await db
      .insert(signingKeys)
      .values(missing.map(({ kind, slot }) => newKeyRow(serverSecret, kind, slot)))
      .onConflictDoNothing();
    rows = await db.select().from(signingKeys);
  }
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
      let privateJwk: JsonWebKey;
      try {
        privateJwk = JSON.parse(decryptWithSecret(serverSecret, PURPOSE, row.encryptedPrivateJwk)) as JsonWebKey;
      } catch {
        throw new Error("Cannot decrypt the token signing keys: STACK_SERVER_SECRET differs from the one they were created with.");
      }
      signers.set(kind, { kid, key: createPrivateKey({ key: privateJwk, format: "jwk" }) });
    }
  }
  return {
    signingKey: (kind) => signers.get(kind)!,
    verificationKey: (kid) => verifiers.get(kid),
    publicJwks: (kind) => published.get(kind) ?? [],
  };
}

/** A new P-256 key pair for one slot, its private half sealed with the server secret. */
function newKeyRow(serverSecret: string, kind: AudienceKind, slot: number): typeof signingKeys.$inferInsert {
  const { publicKey, privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const kid = randomCode(12);
  const { kty, crv, x, y } = publicKey.export({ format: "jwk" });
  return {
    kid,
    audienceKind: kind,
    slot,
    publicJwk: { kty: kty!, crv: crv!, x: x!, y: y!, alg: "ES256", kid },
    encryptedPrivateJwk: encryptWithSecret(serverSecret, PURPOSE, JSON.stringify(privateKey.export({ format: "jwk" }))),
  };
}
