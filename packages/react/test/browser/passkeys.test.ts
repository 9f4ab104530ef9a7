/**
 * Passkeys in a real browser: the demo app in Chromium, whose virtual
 * authenticator (DevTools' WebAuthn domain: CTAP2, built in, resident keys,
 * user verification, presence confirmed automatically) creates and uses a
 * real passkey. One story, in order: sign up, add a passkey in account
 * settings, sign out, sign in with the passkey button, rename and remove it.
 *
 * The app is opened on http://localhost: a passkey belongs to a domain name
 * (its relying-party id), and an IP address such as 127.0.0.1 is not one.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, CDPSession, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSdkProject } from "../../../js/test/server/fixtures.ts";
import { PASSWORD, uniqueEmail } from "../../../js/test/server/support.ts";
import { createTestServer, type TestServer } from "../../../server/test/harness.ts";
import { logPageErrors, repoRoot, startDemoApp, type DemoApp } from "./demo-app.ts";

const screenshots = join(repoRoot, "test-artifacts");
const email = uniqueEmail("passkey");

let server: TestServer;
let demo: DemoApp;
let demoUrl: string;
let context: BrowserContext;
let page: Page;
let devtools: CDPSession;
let authenticatorId: string;

beforeAll(async () => {
  server = await createTestServer();
  const apiUrl = await server.listen();
  const project = await createSdkProject(apiUrl, { passkeyEnabled: true });
  demo = await startDemoApp({
    VITE_LATCHKEY_API_URL: apiUrl,
    VITE_LATCHKEY_PROJECT_ID: project.id,
    VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey,
  });
  demoUrl = demo.url.replace("://127.0.0.1:", "://localhost:");
  context = await demo.browser.newContext({ viewport: { width: 1100, height: 900 } });
  page = logPageErrors(await context.newPage());
  devtools = await context.newCDPSession(page);
  await devtools.send("WebAuthn.enable");
  ({ authenticatorId } = await devtools.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  }));
  mkdirSync(screenshots, { recursive: true });
  await page.goto(`${demoUrl}/`);
  await page.getByRole("link", { name: "Sign in" }).waitFor();
});

afterAll(async () => {
  await context?.close();
  await demo?.close();
  await server?.close();
});

async function waitForPath(path: string): Promise<void> {
  await page.waitForURL((url) => `${url.pathname}${url.search}` === path);
}

const passkeysSection = () => page.getByRole("region", { name: "Passkeys", exact: true });
const passkeyList = () => passkeysSection().getByRole("list", { name: "Your passkeys" });

async function storedCredentials() {
  const { credentials } = await devtools.send("WebAuthn.getCredentials", { authenticatorId });
  return credentials;
}

describe("passkeys in the demo app", () => {
  test("a new user adds a passkey in account settings; the browser's authenticator keeps it for localhost", async () => {
    await page.goto(`${demoUrl}/handler/sign-up`);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Repeat password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await waitForPath("/");
    await page.getByText(`Signed in as ${email}`).waitFor();

    await page.goto(`${demoUrl}/handler/account-settings`);
    await passkeysSection().getByText("You have no passkeys yet.").waitFor();
    await passkeysSection().getByRole("button", { name: "Add a passkey" }).click();
    await passkeysSection().getByRole("status").filter({ hasText: "Passkey added." }).waitFor();
    await expect.poll(() => passkeyList().getByRole("listitem").count()).toBe(1);

    const credentials = await storedCredentials();
    expect(credentials).toHaveLength(1);
    expect(credentials[0]).toMatchObject({ isResidentCredential: true, rpId: "localhost" });
    await passkeysSection().screenshot({ path: join(screenshots, "passkeys-account-settings.png") });
  });

  test("after signing out, the passkey button on the sign-in page signs the user in again", async () => {
    await page.goto(`${demoUrl}/`);
    await page.getByRole("button", { name: "Account menu" }).click();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Sign in" }).waitFor();

    await page.goto(`${demoUrl}/handler/sign-in`);
    const button = page.getByRole("button", { name: "Sign in with passkey" });
    await button.waitFor();
    await page.screenshot({ path: join(screenshots, "passkeys-sign-in.png") });
    await button.click();
    await waitForPath("/");
    await page.getByText(`Signed in as ${email}`).waitFor();
    expect((await storedCredentials())[0]!.signCount).toBeGreaterThan(0);
    await page.screenshot({ path: join(screenshots, "passkeys-signed-in.png") });
  });

  test("the passkey shows its use, can be renamed, and removed after a confirmation; focus follows each step", async () => {
    await page.goto(`${demoUrl}/handler/account-settings`);
    const item = passkeyList().getByRole("listitem");
    await item.getByText(/last used/).waitFor();
    const nameField = passkeysSection().getByLabel("Passkey name", { exact: true });
    const status = passkeysSection().getByRole("status");

    // Rename opens a form on its field; Cancel gives focus back to Rename. Keys only from here on.
    await item.getByRole("button", { name: /^Rename / }).focus();
    await page.keyboard.press("Enter");
    await expectFocused(nameField);
    await item.getByRole("button", { name: "Cancel" }).focus();
    await page.keyboard.press("Enter");
    await expectFocused(item.getByRole("button", { name: /^Rename / }));

    await page.keyboard.press("Enter");
    await expectFocused(nameField);
    await nameField.fill("Test laptop");
    await page.keyboard.press("Enter");
    await item.getByText("Test laptop").waitFor();
    await expectFocused(item.getByRole("button", { name: "Rename Test laptop" }));
    await status.filter({ hasText: "Passkey renamed." }).waitFor();

    // Remove… asks on a confirm button; Cancel returns to Remove…; a removal leaves focus on "Add a passkey".
    await item.getByRole("button", { name: "Remove Test laptop" }).focus();
    await page.keyboard.press("Enter");
    await expectFocused(item.getByRole("button", { name: "Remove passkey" }));
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    await expectFocused(item.getByRole("button", { name: "Remove Test laptop" }));
    await page.keyboard.press("Enter");
    await expectFocused(item.getByRole("button", { name: "Remove passkey" }));
    await page.keyboard.press("Enter");
    await passkeysSection().getByText("You have no passkeys yet.").waitFor();
    await expectFocused(passkeysSection().getByRole("button", { name: "Add a passkey" }));
    await status.filter({ hasText: "Passkey removed." }).waitFor();
  });
});

/** Waits until `target` holds the keyboard focus (it moves after the next frame). */
async function expectFocused(target: Locator): Promise<void> {
  await expect.poll(() => target.evaluate((element) => element === document.activeElement)).toBe(true);
}
