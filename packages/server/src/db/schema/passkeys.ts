import { sql } from "drizzle-orm";
import { bigint, boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenancyColumns } from "./projects.ts";
import { users } from "./users.ts";

/**
 * A user's registered passkeys (WebAuthn credentials). Only public keys are
 * stored; the signature counter is kept to notice a cloned authenticator.
 */
export const passkeys = pgTable(
  "passkeys",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    ...tenancyColumns(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The credential id, base64url, as the authenticator reports it. */
    credentialId: text("credential_id").notNull(),
    /** COSE public key, base64url. */
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    transports: jsonb("transports").$type<string[]>().notNull().default([]),
    /** The WebAuthn user handle the credential was made for, base64url. */
    userHandle: text("user_handle").notNull(),
    deviceType: text("device_type").notNull(),
    backedUp: boolean("backed_up").notNull().default(false),
    /** What the user calls it; the authenticator's name is unknown to us. */
    displayName: text("display_name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("passkeys_credential_unique").on(t.projectId, t.branchId, t.credentialId),
    index("passkeys_user_idx").on(t.userId, t.createdAt),
  ],
);

export type PasskeyRow = typeof passkeys.$inferSelect;
