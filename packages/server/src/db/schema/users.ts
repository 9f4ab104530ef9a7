import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  date,
  index,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tenancyColumns } from "./projects.ts";

export const users = pgTable(
  "users",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    ...tenancyColumns(),
    displayName: text("display_name"),
    profileImageUrl: text("profile_image_url"),
    clientMetadata: jsonb("client_metadata"),
    clientReadOnlyMetadata: jsonb("client_read_only_metadata"),
    serverMetadata: jsonb("server_metadata"),
    signedUpAt: timestamp("signed_up_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    lastActiveAt: timestamp("last_active_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    isAnonymous: boolean("is_anonymous").notNull().default(false),
    passwordHash: text("password_hash"),
    // Plaintext secrets written before they were encrypted; moved into totp_secret_sealed at start-up
    // (domain/auth/mfa/seal-legacy-secrets.ts), so always null once a server has started.
    legacyTotpSecretBase64: text("totp_secret_base64"),
    // The TOTP secret, encrypted with the server secret (domain/auth/mfa/totp.ts); null: no two-factor.
    totpSecretSealed: text("totp_secret_sealed"),
    // The last TOTP time step a sign-in used: a code of that step or an earlier one is refused.
    totpLastUsedStep: bigint("totp_last_used_step", { mode: "number" }),
    otpAuthEnabled: boolean("otp_auth_enabled").notNull().default(false),
    passkeyAuthEnabled: boolean("passkey_auth_enabled").notNull().default(false),
    selectedTeamId: uuid("selected_team_id"),
    restrictedByAdmin: boolean("restricted_by_admin").notNull().default(false),
    restrictedByAdminReason: text("restricted_by_admin_reason"),
    restrictedByAdminPrivateDetails: text("restricted_by_admin_private_details"),
    countryCode: text("country_code"),
    // 0-100, from the bot challenge answered when the account was created (domain/bot-challenge/risk-score.ts).
    signUpBotRiskScore: smallint("sign_up_bot_risk_score").notNull().default(0),
  },
  (t) => [
    index("users_listing_idx").on(t.projectId, t.branchId, t.signedUpAt, t.id),
    // The list ordered by last activity (domain/users/list.ts), paged by keyset like the sign-up order.
    index("users_activity_listing_idx").on(t.projectId, t.branchId, t.lastActiveAt, t.id),
    // Deleting a team clears it as the selected team of whoever had it.
    index("users_selected_team_idx")
      .on(t.selectedTeamId)
      .where(sql`${t.selectedTeamId} is not null`),
    // Search matches any part of a name (ilike '%…%'): a trigram index finds those without reading every user.
    index("users_display_name_trgm_idx").using("gin", t.displayName.op("gin_trgm_ops")),
  ],
);

export const contactChannels = pgTable(
  "contact_channels",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    ...tenancyColumns(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").notNull().$type<"email">(),
    value: text("value").notNull(),
    isVerified: boolean("is_verified").notNull().default(false),
    isPrimary: boolean("is_primary").notNull().default(false),
    usedForAuth: boolean("used_for_auth").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    // One account per sign-in address, case-insensitively: the database, not a
    // racy read-then-write, decides who gets an e-mail under concurrency.
    uniqueIndex("contact_channels_auth_unique")
      .on(t.projectId, t.branchId, t.type, sql`lower(${t.value})`)
      .where(sql`${t.usedForAuth}`),
    uniqueIndex("contact_channels_user_value_unique").on(t.userId, t.type, sql`lower(${t.value})`),
    uniqueIndex("contact_channels_one_primary")
      .on(t.userId, t.type)
      .where(sql`${t.isPrimary}`),
    index("contact_channels_lookup_idx").on(t.projectId, t.branchId, sql`lower(${t.value})`),
    // The users search matches any part of an address, like a name.
    index("contact_channels_value_trgm_idx").using("gin", t.value.op("gin_trgm_ops")),
  ],
);

/**
 * The UTC days on which a user signed in or refreshed a session, for the
 * daily active users of /internal/metrics (domain/metrics/). Written at most
 * once per user per day by each process (domain/users/activity.ts), with what
 * the overview splits by as it was that day, so reading a month of days is an
 * aggregate over this table alone; days older than the overview shows are
 * deleted by housekeeping. The key starts with the tenancy and the day, the
 * order the overview reads a range of days in.
 */
export const userActivityDays = pgTable(
  "user_activity_days",
  {
    ...tenancyColumns(),
    day: date("day", { mode: "string" }).notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    isAnonymous: boolean("is_anonymous").notNull(),
    /** `new`: the day they signed up; `retained`: active the day before too; `reactivated`: back after a day or more. */
    kind: text("kind").notNull().$type<ActivityKind>(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.branchId, t.day, t.userId] }), index("user_activity_days_user_idx").on(t.userId)],
);

export type ActivityKind = "new" | "retained" | "reactivated";

export type UserRow = typeof users.$inferSelect;

export type ContactChannelRow = typeof contactChannels.$inferSelect;
