import { sql } from "drizzle-orm";
import { boolean, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenancyColumns } from "./projects.ts";
import { users } from "./users.ts";

/**
 * A user's account at an OAuth provider: what they sign in with
 * (`allow_sign_in`) and/or whose provider tokens the app may use
 * (`allow_connected_accounts`). The partial unique indexes hold the rules:
 * one sign-in account per provider per user, and a provider account signs
 * in to one user only.
 */
export const oauthAccounts = pgTable(
  "oauth_accounts",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    ...tenancyColumns(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The project's provider entry (oauth_providers[].id in the project config). */
    providerConfigId: text("provider_config_id").notNull(),
    /** The user's id at the provider. */
    providerAccountId: text("provider_account_id").notNull(),
    email: text("email"),
    allowSignIn: boolean("allow_sign_in").notNull().default(true),
    allowConnectedAccounts: boolean("allow_connected_accounts").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("oauth_accounts_user_account_unique").on(t.projectId, t.branchId, t.userId, t.providerConfigId, t.providerAccountId),
    uniqueIndex("oauth_accounts_sign_in_per_user_unique")
      .on(t.projectId, t.branchId, t.userId, t.providerConfigId)
      .where(sql`${t.allowSignIn}`),
    uniqueIndex("oauth_accounts_sign_in_account_unique")
      .on(t.projectId, t.branchId, t.providerConfigId, t.providerAccountId)
      .where(sql`${t.allowSignIn}`),
    index("oauth_accounts_user_idx").on(t.userId, t.createdAt),
  ],
);

/**
 * Tokens the provider gave for an account, encrypted with the server secret:
 * access tokens (until they expire) and refresh tokens (until the provider
 * refuses them), with the scopes they were granted.
 */
export const oauthTokens = pgTable(
  "oauth_tokens",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    ...tenancyColumns(),
    oauthAccountId: uuid("oauth_account_id")
      .notNull()
      .references(() => oauthAccounts.id, { onDelete: "cascade" }),
    kind: text("kind").notNull().$type<"access" | "refresh">(),
    tokenSealed: text("token_sealed").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull().default([]),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    isValid: boolean("is_valid").notNull().default(true),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [index("oauth_tokens_account_idx").on(t.oauthAccountId, t.kind, t.createdAt)],
);

/**
 * An OAuth sign-in in progress between our authorize endpoint and the
 * provider's return to our callback: what the app asked for (its redirect
 * URI, state, PKCE challenge…) and our own PKCE verifier towards the
 * provider (encrypted). Found by the digest of the state we gave the
 * provider; deleted when the callback takes it, so it is used once.
 */
export const oauthFlows = pgTable(
  "oauth_flows",
  {
    id: uuid("id")
      .primaryKey()
      .default(sql`gen_random_uuid()`),
    ...tenancyColumns(),
    stateHash: text("state_hash").notNull(),
    data: jsonb("data").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [uniqueIndex("oauth_flows_state_unique").on(t.stateHash), index("oauth_flows_expiry_idx").on(t.expiresAt)],
);

export type OAuthAccountRow = typeof oauthAccounts.$inferSelect;

export type OAuthTokenRow = typeof oauthTokens.$inferSelect;
