/**
 * Two-factor in a real browser: the demo app (apps/demo) in Chromium against
 * a real Latchkey server. One user's story, in order: sign up, turn
 * two-factor on in account settings with the setup key the page shows (the
 * test plays the authenticator app), sign out, sign in with the password,
 * land on the MFA page, refuse a wrong code, finish with a right one back on
 * the page the sign-in started from; then turn two-factor off. Screenshots
 * of the enrolment panel and the MFA page go to test-artifacts/.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { Secret, TOTP } from "otpauth";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSdkProject } from "../../../js/test/server/fixtures.ts";
import { PASSWORD, uniqueEmail } from "../../../js/test/server/support.ts";
import { createMailingTestServer, type MailingServer } from "../../../server/test/mail-fixtures.ts";
import { logPageErrors, repoRoot, startDemoApp, type DemoApp } from "./demo-app.ts";

const artifacts = join(repoRoot, "test-artifacts");
const ATTEMPT_KEY = "stack_mfa_attempt_code";

let mailing: MailingServer;
let demo: DemoApp;
let context: BrowserContext;
let page: Page;

const email = uniqueEmail("mfa-browser");
/** The setup key the enrolment panel showed (base32), as the user would type it into their app. */
let setupKey: string;

beforeAll(async () => {
  mailing = await createMailingTestServer();
  const apiUrl = await mailing.server.listen();
  const project = await createSdkProject(apiUrl);
  demo = await startDemoApp({
    VITE_LATCHKEY_API_URL: apiUrl,
    VITE_LATCHKEY_PROJECT_ID: project.id,
    VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey,
  });
  context = await demo.browser.newContext({ viewport: { width: 1100, height: 900 } });
  page = await openPage();
  mkdirSync(artifacts, { recursive: true });
  await page.goto(`${demo.url}/`);
  await page.getByRole("link", { name: "Sign in" }).waitFor();
});

afterAll(async () => {
  await demo?.close();
  await mailing?.close();
});

async function openPage(): Promise<Page> {
  return logPageErrors(await context.newPage());
}

/** What the authenticator app shows for the setup key. */
function appCode(key: string, timestamp = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(key), digits: 6, period: 30 }).generate({ timestamp });
}

/** A code that is neither the current one nor a neighbour (both sides accept one step of drift). */
function wrongCode(key: string): string {
  const now = Date.now();
  const near = new Set([-30_000, 0, 30_000].map((drift) => appCode(key, now + drift)));
  for (let i = 0; ; i++) {
    const candidate = String(i).padStart(6, "0");
    if (!near.has(candidate)) return candidate;
  }
}

async function waitForPath(path: string): Promise<void> {
  await page.waitForURL((url) => `${url.pathname}${url.search}` === path);
}

const mfaSection = () => page.getByRole("region", { name: "Two-factor authentication", exact: true });

async function signOutThroughMenu(): Promise<void> {
  await page.goto(`${demo.url}/`);
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await page.getByRole("link", { name: "Sign in" }).waitFor();
}

async function signInWithPassword(): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

describe("two-factor with an authenticator app", () => {
  test("a new user turns two-factor on in account settings: a wrong code is refused, the app's code enables it", async () => {
    await page.goto(`${demo.url}/handler/sign-up`);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Repeat password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await waitForPath("/");

    await page.goto(`${demo.url}/handler/account-settings`);
    await mfaSection().getByText("Two-factor authentication is currently disabled.").waitFor();
    await mfaSection().getByRole("button", { name: "Enable two-factor authentication", exact: true }).click();

    const panel = page.getByRole("form", { name: "Set up two-factor authentication" });
    const qrCode = panel.getByRole("img", { name: "TOTP multi-factor authentication QR code" });
    await qrCode.waitFor();
    expect(await qrCode.getAttribute("src")).toMatch(/^data:image\/png;base64,/);
    setupKey = (await panel.locator("code").innerText()).trim();
    // 20 random bytes in base32.
    expect(setupKey).toMatch(/^[A-Z2-7]{32}$/);

    const input = panel.getByLabel("Then, enter the six-digit code from your app", { exact: true });
    expect(await input.getAttribute("inputmode")).toBe("numeric");
    expect(await input.getAttribute("autocomplete")).toBe("one-time-code");
    await input.pressSequentially(wrongCode(setupKey));
    await panel.getByRole("alert").filter({ hasText: "Incorrect code. Please try again." }).waitFor();
    expect(await input.inputValue()).toBe("");
    await mfaSection().screenshot({ path: join(artifacts, "mfa-enrolment.png") });

    await input.pressSequentially(appCode(setupKey));
    await mfaSection().getByRole("status").filter({ hasText: "Two-factor authentication is now enabled." }).waitFor();
    await mfaSection().getByText("Two-factor authentication is currently enabled", { exact: false }).waitFor();
    // The secret is shown only while enrolling.
    expect(await page.getByText(setupKey).count()).toBe(0);
    await page.reload();
    await mfaSection().getByRole("button", { name: "Disable two-factor authentication…", exact: true }).waitFor();
    expect(await page.getByText(setupKey).count()).toBe(0);
  });

  test("signing in with the password leads to the MFA page, which refuses a wrong code", async () => {
    await signOutThroughMenu();
    await page.goto(`${demo.url}/protected`);
    await waitForPath("/handler/sign-in?after_auth_return_to=%2Fprotected");
    await signInWithPassword();

    await waitForPath("/handler/mfa?after_auth_return_to=%2Fprotected");
    await page.getByRole("heading", { name: "Multi-Factor Authentication", exact: true }).waitFor();
    await page.getByText("Enter the six-digit code from your authenticator app", { exact: true }).waitFor();
    expect(await page.evaluate((key) => sessionStorage.getItem(key), ATTEMPT_KEY)).toHaveLength(45);
    const input = page.getByLabel("Six-digit code", { exact: true });
    expect(await input.getAttribute("inputmode")).toBe("numeric");
    expect(await input.getAttribute("autocomplete")).toBe("one-time-code");
    await page.screenshot({ path: join(artifacts, "mfa-page.png"), fullPage: true });

    // Sent on the 6th digit, no button needed.
    await input.pressSequentially(wrongCode(setupKey));
    await page.getByRole("alert").filter({ hasText: "Invalid TOTP code" }).waitFor();
    expect(await input.inputValue()).toBe("");
    expect(new URL(page.url()).pathname).toBe("/handler/mfa");
    await page.screenshot({ path: join(artifacts, "mfa-page-invalid-code.png"), fullPage: true });
  });

  test("the app's current code finishes the sign-in, back on the page it started from", async () => {
    // Hold the request until "Verifying..." has been seen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route("**/api/v1/auth/mfa/sign-in", async (route) => {
      await held;
      await route.continue();
    });
    const input = page.getByLabel("Six-digit code", { exact: true });
    await input.pressSequentially(appCode(setupKey));
    await page.getByRole("status").filter({ hasText: "Verifying..." }).waitFor();
    expect(await input.getAttribute("readonly")).not.toBeNull();
    release();

    await waitForPath("/protected");
    await page.getByText(`Protected page for ${email}`).waitFor();
    await page.unroute("**/api/v1/auth/mfa/sign-in");
    expect(await page.evaluate((key) => sessionStorage.getItem(key), ATTEMPT_KEY)).toBeNull();
  });

  test("the MFA page opened without a sign-in in progress says so and links back to sign in", async () => {
    const fresh = await openPage();
    await fresh.goto(`${demo.url}/handler/mfa`);
    await fresh.getByRole("alert").filter({ hasText: "Missing verification information. Please sign in again." }).waitFor();
    expect(await fresh.getByRole("link", { name: "Back to sign in", exact: true }).getAttribute("href")).toBe("/handler/sign-in");
    await fresh.close();
  });

  test("turning two-factor off takes a confirmation; then the password alone signs in", async () => {
    await page.goto(`${demo.url}/handler/account-settings`);
    await mfaSection().getByRole("button", { name: "Disable two-factor authentication…", exact: true }).click();
    await mfaSection().getByRole("button", { name: "Disable two-factor authentication", exact: true }).click();
    await mfaSection().getByText("Two-factor authentication is currently disabled.").waitFor();

    await signOutThroughMenu();
    await page.goto(`${demo.url}/handler/sign-in`);
    await signInWithPassword();
    await waitForPath("/");
    await page.getByText(`Signed in as ${email}`).waitFor();
  });
});
