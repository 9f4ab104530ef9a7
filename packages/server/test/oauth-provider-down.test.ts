/**
 * A provider that cannot be reached when the browser comes back to our
 * callback: OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE (503), sent back to the
 * app like the callback's other known errors. Its own testbed: the
 * development provider is stopped half-way.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueEmail, type Project } from "./fixtures.ts";
import {
  APP_CALLBACK,
  createOAuthProject,
  providerCallbackUrl,
  startOAuthTestbed,
  startSignIn,
  type OAuthTestbed,
} from "./oauth-fixtures.ts";

let testbed: OAuthTestbed;
let project: Project;

beforeAll(async () => {
  testbed = await startOAuthTestbed();
  project = await createOAuthProject(testbed.server);
});
afterAll(() => testbed?.close());

describe("a provider that refuses connections at the callback", () => {
  it("sends OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE to the app; the flow is spent", async () => {
    const redirected = await startSignIn(testbed, project);
    const redirectedCallback = await providerCallbackUrl(testbed, redirected, uniqueEmail("down"));
    // From here on, connecting to the provider is refused.
    await testbed.provider.close();

    const res = await redirected.browser.go(redirectedCallback);
    expect(res.status).toBe(307);
    const app = new URL(res.headers.get("location")!);
    expect(`${app.origin}${app.pathname}`).toBe(APP_CALLBACK);
    expect(app.searchParams.get("errorCode")).toBe("OAUTH_PROVIDER_TEMPORARILY_UNAVAILABLE");
    expect(app.searchParams.get("message")).toBe("The OAuth provider is temporarily unavailable. Please try signing in again.");
    expect((await redirected.browser.go(redirectedCallback)).status).toBe(400);
  });
});
