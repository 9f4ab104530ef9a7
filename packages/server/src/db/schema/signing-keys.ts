import { integer, jsonb, pgTable, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";

/**
 * ES256 key pairs, kept in the database so every replica signs and verifies
 * with the same keys. Private keys are encrypted with the server secret.
 * One set per audience kind (regular, anonymous, restricted users), so a
 * verifier that trusts only the regular JWKS never accepts an anonymous token.
 */
export const signingKeys = pgTable(
  "signing_keys",
  {
    kid: text("kid").primaryKey(),
    audienceKind: text("audience_kind").notNull().$type<"regular" | "anonymous" | "restricted">(),
    slot: integer("slot").notNull(),
    publicJwk: jsonb("public_jwk").notNull().$type<Record<string, string>>(),
    encryptedPrivateJwk: text("encrypted_private_jwk").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("signing_keys_kind_slot_unique").on(t.audienceKind, t.slot)],
);
