/** The shared OAuth credentials read from the environment (configFromEnv). */
import { describe, expect, it } from "vitest";
import { configFromEnv } from "../../src/config.ts";

const BASE = { STACK_SERVER_SECRET: "x".repeat(32) };

describe("shared OAuth credentials from the environment", () => {
  it("takes STACK_<PROVIDER>_CLIENT_ID and _CLIENT_SECRET per provider id", () => {
    const config = configFromEnv({
      ...BASE,
      STACK_GITHUB_CLIENT_ID: "gh-id",
      STACK_GITHUB_CLIENT_SECRET: "gh-secret",
      STACK_X_CLIENT_ID: "x-id",
      STACK_X_CLIENT_SECRET: "x-s",
    });
    expect(config.sharedOAuthCredentials).toEqual({
      github: { kind: "real", clientId: "gh-id", clientSecret: "gh-secret" },
      x: { kind: "real", clientId: "x-id", clientSecret: "x-s" },
    });
    expect(config.oauthMockUrl).toBeNull();
  });

  it("MOCK for both sends the provider to STACK_OAUTH_MOCK_URL", () => {
    const config = configFromEnv({
      ...BASE,
      STACK_OAUTH_MOCK_URL: "http://localhost:8114/",
      STACK_GOOGLE_CLIENT_ID: "MOCK",
      STACK_GOOGLE_CLIENT_SECRET: "MOCK",
    });
    expect(config.sharedOAuthCredentials).toEqual({ google: { kind: "mock" } });
    expect(config.oauthMockUrl).toBe("http://localhost:8114");
  });

  it("refuses to start with half a pair, MOCK for one of them, or MOCK without the mock's URL", () => {
    expect(() => configFromEnv({ ...BASE, STACK_GITHUB_CLIENT_ID: "id" })).toThrow(/STACK_GITHUB_CLIENT_SECRET/);
    expect(() =>
      configFromEnv({ ...BASE, STACK_OAUTH_MOCK_URL: "http://m", STACK_GITHUB_CLIENT_ID: "MOCK", STACK_GITHUB_CLIENT_SECRET: "s" }),
    ).toThrow(/must both be MOCK/);
    expect(() => configFromEnv({ ...BASE, STACK_GITHUB_CLIENT_ID: "MOCK", STACK_GITHUB_CLIENT_SECRET: "MOCK" })).toThrow(
      /STACK_OAUTH_MOCK_URL/,
    );
  });

  it("has none by default", () => {
    expect(configFromEnv(BASE).sharedOAuthCredentials).toEqual({});
  });
});
