import { sql } from "drizzle-orm";
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenancyColumns } from "./projects.ts";

/**
 * One-time codes of every flow (e-mail verification, sign-in codes, password
 * reset, invitations, MFA attempts). Only digests are stored: of the whole
 * code, and of its last 39 characters (the nonce several codes may share,
 * which carries the attempt count).
 */
export const verificationCodes = pgTable(
  "verification_codes",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    ...tenancyColumns(),
    /** Which flow the code belongs to; a code only works for its own flow. */
    purpose: text("purpose").notNull(),
    codeHash: text("code_hash").notNull(),
    nonceHash: text("nonce_hash").notNull(),
    /** What the flow needs when the code is used (e.g. the user and e-mail). */
    data: jsonb("data").notNull(),
    attemptCount: integer("attempt_count").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("verification_codes_code_hash_unique").on(t.codeHash),
    index("verification_codes_nonce_idx").on(t.projectId, t.nonceHash),
    // Housekeeping deletes codes long expired (domain/codes/expired-codes.ts).
    index("verification_codes_expiry_idx").on(t.expiresAt),
    // Listing a team's pending invitations.
    index("verification_codes_team_idx")
      .on(t.projectId, sql`(${t.data}->>'team_id')`)
      .where(sql`${t.purpose} = 'team_invitation'`),
  ],
);
