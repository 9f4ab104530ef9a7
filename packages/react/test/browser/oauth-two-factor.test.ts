/**
 * OAuth for a user with two-factor, in a real browser (oauth-story.ts sets
 * the stage). Grace signs up with GitHub and turns two-factor on (the test
 * plays her authenticator app, as mfa.test.ts does); signing in with GitHub
 * from a page that sends her back there, she passes the MFA page and lands
 * there; connecting a Google account asks for no second factor and keeps
 * her session; denying a Connect leads back to account settings.
 */
import { Secret, TOTP } from "otpauth";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { connectedAccounts, onPath, onProviderPage, signInAtProvider, signOut, startOAuthStory, type OAuthStory } from "./oauth-story.ts";

const graceEmail = "grace@example.com";
const graceGoogleEmail = "grace.hopper@example.org";

let story: OAuthStory;
let demoUrl: string;
let grace: Page;
/** The setup key Grace's authenticator app holds. */
let setupKey: string;

beforeAll(async () => {
  story = await startOAuthStory();
  demoUrl = story.demoUrl;
  grace = await story.demo.openPage();
  await grace.goto(`${demoUrl}/`);
  await grace.getByRole("link", { name: "Sign in" }).waitFor();
});

afterAll(async () => {
  await story?.close();
});

/** What an authenticator app shows for the setup key. */
function appCode(key: string): string {
  return new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 }).generate();
}

/** Turns two-factor on in account settings, as the user would with an authenticator app; returns the setup key. */
async function turnOnTwoFactor(page: Page): Promise<string> {
  await page.goto(`${demoUrl}/handler/account-settings`);
  const section = page.getByRole("region", { name: "Two-factor authentication", exact: true });
  await section.getByRole("button", { name: "Enable two-factor authentication", exact: true }).click();
  const panel = page.getByRole("form", { name: "Set up two-factor authentication" });
  const setupKey = (await panel.locator("code").innerText()).trim();
  await panel.getByLabel("Then, enter the six-digit code from your app", { exact: true }).pressSequentially(appCode(setupKey));
  await section.getByRole("status").filter({ hasText: "Two-factor authentication is now enabled." }).waitFor();
  return setupKey;
}

describe("OAuth with two-factor", () => {
  test("a user with two-factor signs in with GitHub, types the app's code on the MFA page, and lands where the sign-in started", async () => {
    await grace.goto(`${demoUrl}/handler/sign-up`);
    await grace.getByRole("button", { name: "Sign up with GitHub" }).click();
    await signInAtProvider(grace, graceEmail, "Grace Hopper");
    await onPath(grace, "/");
    setupKey = await turnOnTwoFactor(grace);
    await signOut(grace);

    await grace.goto(`${demoUrl}/protected`);
    await grace.waitForURL((url) => url.pathname === "/handler/sign-in" && url.searchParams.get("after_auth_return_to") === "/protected");
    await grace.getByRole("button", { name: "Sign in with GitHub" }).click();
    await signInAtProvider(grace, graceEmail);
    await grace.waitForURL((url) => url.pathname === "/handler/mfa" && url.searchParams.get("after_auth_return_to") === "/protected");
    await grace.getByLabel("Six-digit code", { exact: true }).pressSequentially(appCode(setupKey));
    await onPath(grace, "/protected");
    await grace.getByText(`Protected page for ${graceEmail}`).waitFor();
  });

  test("that user connects a Google account: no second factor asked again, and the same session goes on", async () => {
    await grace.goto(`${demoUrl}/handler/account-settings`);
    const sessions = grace.getByRole("region", { name: "Active sessions", exact: true }).getByRole("listitem");
    await sessions.first().waitFor();
    // Each session as listed, less when it was last used (which a reload moves).
    const listed = async () => (await sessions.allTextContents()).map((text) => text.split(" · last used")[0]);
    const before = await listed();
    const paths: string[] = [];
    grace.on("framenavigated", (frame) => {
      if (frame === grace.mainFrame()) paths.push(new URL(frame.url()).pathname);
    });
    const exchanges: string[] = [];
    grace.on("request", (request) => {
      if (request.url().endsWith("/auth/oauth/token")) exchanges.push(request.url());
    });

    const google = connectedAccounts(grace).getByRole("region", { name: "Google" });
    await google.getByRole("button", { name: "Connect Google account" }).click();
    await signInAtProvider(grace, graceGoogleEmail);
    await onPath(grace, "/handler/account-settings");
    await google.getByRole("listitem").filter({ hasText: graceGoogleEmail }).waitFor();
    expect(paths).not.toContain("/handler/mfa");
    // The link was made before the code came back: no exchange, so no second session.
    expect(exchanges).toEqual([]);
    await expect.poll(listed).toEqual(before);
  });

  test("denying a Connect on the provider's page: the callback page says connecting failed and leads back to account settings", async () => {
    await grace.goto(`${demoUrl}/handler/account-settings`);
    await connectedAccounts(grace)
      .getByRole("region", { name: "GitHub" })
      .getByRole("button", { name: "Connect another GitHub account" })
      .click();
    await onProviderPage(grace);
    await grace.getByRole("button", { name: "Deny access" }).click();
    await onPath(grace, "/handler/oauth-callback");
    await grace.getByRole("heading", { name: "Connecting the account failed" }).waitFor();
    await grace
      .getByRole("alert")
      .filter({ hasText: "The OAuth provider denied access: the user cancelled or did not grant the requested permissions." })
      .waitFor();
    await grace.getByRole("link", { name: "Back to account settings" }).click();
    await onPath(grace, "/handler/account-settings");
    // Still signed in as before.
    await connectedAccounts(grace)
      .getByRole("region", { name: "Google" })
      .getByRole("listitem")
      .filter({ hasText: graceGoogleEmail })
      .waitFor();
  });
});
