import { sql } from "drizzle-orm";
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenancyColumns } from "../../db/schema/projects.ts";

/**
 * A CLI's request to be signed in. The CLI holds the polling code, the
 * browser gets the login code; both are stored as digests only. The two
 * refresh tokens a row may hold are encrypted with the server secret:
 * - the confirming user's, from completion until the CLI's poll takes it
 *   (or finds that session ended, which reopens the request);
 * - the CLI's anonymous one, from the start until the browser takes it over
 *   or a user confirms.
 * Whichever is still there when a poll or a completion finds the request
 * expired is cleared then. The row itself (with any token still on it, when
 * nobody came back after it expired) is deleted once it expired over a day
 * ago, up to 100 rows at a time (domain/attempts.ts `deleteLongExpired`), by
 * each new request (POST /auth/cli) and by the server's periodic
 * housekeeping (capability.ts).
 */
export const cliAuthAttempts = pgTable(
  "cli_auth_attempts",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    ...tenancyColumns(),
    pollingCodeHash: text("polling_code_hash").notNull(),
    loginCodeHash: text("login_code_hash").notNull(),
    /** The anonymous session the CLI had when it asked, if any: the browser may take it over (once). */
    anonRefreshTokenSealed: text("anon_refresh_token_sealed"),
    /** The confirming user's refresh token, set by completion and cleared when the CLI polls it. */
    refreshTokenSealed: text("refresh_token_sealed"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }),
    /** When the CLI received its session: the request is spent. */
    usedAt: timestamp("used_at", { withTimezone: true, mode: "date" }),
  },
  (t) => [
    uniqueIndex("cli_auth_attempts_polling_code_unique").on(t.pollingCodeHash),
    uniqueIndex("cli_auth_attempts_login_code_unique").on(t.loginCodeHash),
    index("cli_auth_attempts_expiry_idx").on(t.expiresAt),
  ],
);
