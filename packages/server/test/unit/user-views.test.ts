/** The serialized user view is kept per user record and project config, never past a change of either. */
import { describe, expect, it } from "vitest";
import { defaultProjectConfig } from "../../src/domain/projects/config.ts";
import type { UserRecord } from "../../src/domain/users/record.ts";
import { userViewJson } from "../../src/domain/users/views.ts";

const user = {
  id: "5b0a6f0e-8f7a-4a55-9a3f-3f1b6d2a1c01",
  projectId: "p",
  branchId: "main",
  displayName: "Ada",
  primaryEmail: "ada@example.com",
  primaryEmailVerified: false,
  primaryEmailAuthEnabled: true,
  selectedTeam: null,
  selectedTeamId: null,
  passwordHash: "x",
  otpAuthEnabled: false,
  passkeyAuthEnabled: false,
  isAnonymous: false,
  restrictedByAdmin: false,
  restrictedByAdminReason: null,
  restrictedByAdminPrivateDetails: null,
  clientMetadata: null,
  clientReadOnlyMetadata: null,
  serverMetadata: { plan: "pro" },
  profileImageUrl: null,
  totpSecretBase64: null,
  countryCode: null,
  signedUpAt: new Date("2026-01-01T00:00:00Z"),
  lastActiveAt: new Date("2026-01-02T00:00:00Z"),
  oauthProviders: [],
} as unknown as UserRecord;

describe("userViewJson", () => {
  it("follows a new config object for the same user record", () => {
    const relaxed = { ...defaultProjectConfig(), require_email_verification: false };
    const strict = { ...relaxed, require_email_verification: true };
    expect(JSON.parse(userViewJson(user, relaxed, "client")).is_restricted).toBe(false);
    expect(JSON.parse(userViewJson(user, strict, "client"))).toMatchObject({
      is_restricted: true,
      restricted_reason: { type: "email_not_verified" },
    });
    expect(JSON.parse(userViewJson(user, relaxed, "client")).is_restricted).toBe(false);
  });

  it("keeps the client and server views apart", () => {
    const config = defaultProjectConfig();
    expect(JSON.parse(userViewJson(user, config, "client"))).not.toHaveProperty("server_metadata");
    expect(JSON.parse(userViewJson(user, config, "server")).server_metadata).toEqual({ plan: "pro" });
    expect(JSON.parse(userViewJson(user, config, "client"))).not.toHaveProperty("server_metadata");
  });
});
