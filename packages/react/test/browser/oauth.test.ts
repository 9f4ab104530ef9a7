/**
 * OAuth in a real browser, through the real redirect dance: the demo app in
 * Chromium, a Latchkey server whose shared GitHub and Google go to the
 * development OpenID provider (apps/dev-oidc-provider, its own process; the
 * MOCK set-up of `npm run demo`), and that provider's sign-in page, where any
 * e-mail counts as verified and names the provider account. One story, in
 * order: Ada signs up with GitHub, signs out, signs in again with GitHub
 * (once from a page that sends her back where she was), connects a Google
 * account from account settings, where her only way in cannot be turned off,
 * and an app page (useConnectedAccount) finds her GitHub connection but not
 * that of Hedy, who signed up with Google; a second browser signs in with
 * Google under Ada's e-mail, refused while the project's merge strategy is
 * raise_error and signed in as Ada under link_method. Then a denial on the
 * provider's page, a callback page opened again after it was used; Grace,
 * with two-factor on, signs in with GitHub through the MFA page, connects
 * Google without a second factor or a new session, and denies a Connect; and
 * a provider turned off under a loaded page.
 * Screenshots go to test-artifacts/ (copies of a run are kept in
 * docs/screenshots/).
 */
import { serve } from "@hono/node-server";
import { OAUTH_PROVIDER_IDS } from "@latchkey/shared";
import { mkdirSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { join } from "node:path";
import { Secret, TOTP } from "otpauth";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSdkProject, type SdkProject } from "../../../js/test/server/fixtures.ts";
import { createTestServer, type TestServer } from "../../../server/test/harness.ts";
import { startDevProviderProcess, type DevProviderProcess } from "../../../server/test/oauth-fixtures.ts";
import { repoRoot, startDemoApp, type DemoApp } from "./demo-app.ts";

const screenshots = join(repoRoot, "test-artifacts");
// Fixed addresses (the server's database and the provider are new for each run): they read well in the screenshots.
const adaEmail = "ada@example.com";
/** The Google account Ada connects: another address of hers, so her sign-in address stays free at Google for the merge tests. */
const adaGoogleEmail = "ada.lovelace@example.org";
/** A user who turns two-factor on. */
const graceEmail = "grace@example.com";
const graceGoogleEmail = "grace.hopper@example.org";

let provider: DevProviderProcess;
let server: TestServer;
let http: ReturnType<typeof serve>;
let project: SdkProject;
let demo: DemoApp;
/** The demo app on localhost: the project trusts localhost as a redirect target. */
let demoUrl: string;
let ada: Page;
/** Grace's page once she has signed in with two-factor, and the setup key her authenticator app holds. */
let gracePage: Page;
let setupKeyOfGrace: string;

/** A port free now, for the server, which must know its public URL (the provider's callbacks) before it starts. */
async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

beforeAll(async () => {
  const apiUrl = `http://127.0.0.1:${await freePort()}`;
  provider = await startDevProviderProcess(apiUrl);
  // What STACK_OAUTH_MOCK_URL and STACK_<PROVIDER>_CLIENT_ID/SECRET=MOCK make of the server's configuration.
  server = await createTestServer({
    apiUrl,
    oauthMockUrl: provider.url,
    sharedOAuthCredentials: Object.fromEntries(OAUTH_PROVIDER_IDS.map((id) => [id, { kind: "mock" as const }])),
  });
  http = serve({ fetch: server.instance.app.fetch, port: Number(new URL(apiUrl).port), hostname: "127.0.0.1" });
  await new Promise<void>((resolve) => http.once("listening", () => resolve()));
  project = await createSdkProject(apiUrl, {
    oauthProviders: [
      { id: "github", type: "shared" },
      { id: "google", type: "shared" },
    ],
    oauthAccountMergeStrategy: "raise_error",
  });
  demo = await startDemoApp({
    VITE_LATCHKEY_API_URL: apiUrl,
    VITE_LATCHKEY_PROJECT_ID: project.id,
    VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey,
  });
  demoUrl = demo.url.replace("://127.0.0.1:", "://localhost:");
  ada = await demo.openPage();
  mkdirSync(screenshots, { recursive: true });
  // The first visit makes Vite pre-bundle the app's dependencies; later visits are fast.
  await ada.goto(`${demoUrl}/`);
  await ada.getByRole("link", { name: "Sign in" }).waitFor();
});

afterAll(async () => {
  await demo?.close();
  if (http) await new Promise((resolve) => http.close(resolve));
  await server?.close();
  await provider?.close();
});

const onProviderPage = (page: Page) => page.waitForURL((url) => url.href.startsWith(`${provider.url}/interaction/`));
const onPath = (page: Page, path: string) => page.waitForURL((url) => url.origin === demoUrl && url.pathname === path);

/** On the provider's sign-in page: signs in as `email`. */
async function signInAtProvider(page: Page, email: string, name = ""): Promise<void> {
  await onProviderPage(page);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Name (optional)").fill(name);
  await page.getByRole("button", { name: "Continue" }).click();
}

/**
 * The server's answer to the callback page's token exchange. Read on its way through (passed on
 * unchanged): the page leaves at once, after which the browser no longer holds the body.
 */
function tokenResponse(page: Page): Promise<{ is_new_user: boolean }> {
  const url = "**/api/v1/auth/oauth/token";
  return new Promise((resolve, reject) => {
    void page.route(url, async (route) => {
      try {
        const response = await route.fetch();
        resolve(await response.json());
        await route.fulfill({ response });
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      } finally {
        await page.unroute(url);
      }
    });
  });
}

async function signOut(page: Page): Promise<void> {
  await page.goto(`${demoUrl}/`);
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await page.getByRole("link", { name: "Sign in" }).waitFor();
}

const DARK_THEME = `
  body { background: #101014; }
  .lk-root.lk-root { --lk-text: #ececf2; --lk-muted: #a3a3b2; --lk-background: #18181e; --lk-surface: #24242c; --lk-border: #3a3a46; --lk-primary: #8b85ff; --lk-primary-text: #101014; }
`;

const connectedAccounts = (page: Page) => page.getByRole("region", { name: "Connected accounts", exact: true });

const ONLY_WAY_IN = "This account is your only way to sign in, so it stays until you set a password or add another way to sign in.";

/** Whether the account `item` lists is held as the user's only way in: its controls off, and the reason given (and tied to them). */
async function expectOnlyWayIn(item: Locator, label: string, only: boolean): Promise<void> {
  const useForSignIn = item.getByRole("checkbox", { name: "Use for sign-in" });
  const disconnect = item.getByRole("button", { name: `Disconnect ${label}` });
  await expect.poll(() => useForSignIn.isDisabled()).toBe(only);
  expect(await disconnect.isDisabled()).toBe(only);
  expect(await item.getByText(ONLY_WAY_IN).count()).toBe(only ? 1 : 0);
  if (!only) return;
  for (const control of [useForSignIn, disconnect]) {
    const description = await control.evaluate((el) => document.getElementById(el.getAttribute("aria-describedby") ?? "")?.textContent);
    expect(description).toBe(ONLY_WAY_IN);
  }
}

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

describe("OAuth in the demo app", () => {
  test("sign-in and sign-up show a button for each provider the project has enabled, apart from the other ways in", async () => {
    await ada.goto(`${demoUrl}/handler/sign-in`);
    const buttons = ada.getByRole("group", { name: "Sign in with another service" }).getByRole("button");
    await expect.poll(() => buttons.allTextContents()).toEqual(["Sign in with GitHub", "Sign in with Google"]);
    await ada.getByRole("separator").waitFor();
    // Below the password form, which is on screen before they are: their arrival moves nothing the user may be about to click.
    const group = ada.getByRole("group", { name: "Sign in with another service" });
    const formFirst = await ada
      .getByRole("button", { name: "Sign in", exact: true })
      .evaluate(
        (submit, groupEl) => Boolean(submit.compareDocumentPosition(groupEl!) & Node.DOCUMENT_POSITION_FOLLOWING),
        await group.elementHandle(),
      );
    expect(formFirst).toBe(true);
    await ada.locator(".lk-card").screenshot({ path: join(screenshots, "oauth-sign-in.png") });

    // Keyboard: Tab reaches the first button (after the demo's own header links), and its focus ring shows.
    const github = ada.getByRole("button", { name: "Sign in with GitHub" });
    const focused = () => github.evaluate((el) => el === document.activeElement);
    for (let presses = 0; presses < 10 && !(await focused()); presses++) await ada.keyboard.press("Tab");
    expect(await github.evaluate((el) => el === document.activeElement && el.matches(":focus-visible"))).toBe(true);
    expect(await github.evaluate((el) => getComputedStyle(el).boxShadow)).not.toBe("none");

    // A dark theme, set the way a host app sets one: the marks take the buttons' text colour with it.
    await ada.addStyleTag({ content: DARK_THEME });
    const markColour = () => github.evaluate((el) => [getComputedStyle(el).color, getComputedStyle(el.querySelector("svg")!).color]);
    await expect.poll(markColour).toEqual(["rgb(236, 236, 242)", "rgb(236, 236, 242)"]);
    await ada.locator(".lk-card").screenshot({ path: join(screenshots, "oauth-sign-in-dark.png") });

    await ada.goto(`${demoUrl}/handler/sign-up`);
    await ada.getByRole("button", { name: "Sign up with GitHub" }).waitFor();
    await ada.getByRole("button", { name: "Sign up with Google" }).waitFor();
    await ada.locator(".lk-card").screenshot({ path: join(screenshots, "oauth-sign-up.png") });
  });

  test("a new user signs up with GitHub through the provider's page and lands signed in, as a new user", async () => {
    await ada.goto(`${demoUrl}/handler/sign-up`);
    await ada.getByRole("button", { name: "Sign up with GitHub" }).click();
    const exchanged = tokenResponse(ada);
    await signInAtProvider(ada, adaEmail, "Ada Lovelace");
    expect((await exchanged).is_new_user).toBe(true);
    // The after-sign-up page (the demo's home), with the code gone from the address.
    await onPath(ada, "/");
    await ada.getByText(`Signed in as ${adaEmail}`).waitFor();
  });

  test("after signing out, GitHub signs the same user in again, not as a new one", async () => {
    await signOut(ada);
    await ada.goto(`${demoUrl}/handler/sign-in`);
    await ada.getByRole("button", { name: "Sign in with GitHub" }).click();
    const exchanged = tokenResponse(ada);
    await signInAtProvider(ada, adaEmail);
    expect((await exchanged).is_new_user).toBe(false);
    await onPath(ada, "/");
    await ada.getByText(`Signed in as ${adaEmail}`).waitFor();
    const users = await server.request("/users", {
      as: { type: "server", projectId: project.id, secretServerKey: project.secretServerKey },
    });
    expect(users.body.items.map((user: { primary_email: string }) => user.primary_email)).toEqual([adaEmail]);
  });

  test("a sign-in page that carries after_auth_return_to sends the user back there after the provider's page", async () => {
    await signOut(ada);
    await ada.goto(`${demoUrl}/protected`);
    await ada.waitForURL((url) => url.pathname === "/handler/sign-in" && url.searchParams.get("after_auth_return_to") === "/protected");
    await ada.getByRole("button", { name: "Sign in with GitHub" }).click();
    await signInAtProvider(ada, adaEmail);
    await onPath(ada, "/protected");
    await ada.getByText(`Protected page for ${adaEmail}`).waitFor();
  });

  test("account settings connect a Google account through the provider's page, and list it", async () => {
    await ada.goto(`${demoUrl}/handler/account-settings`);
    const section = connectedAccounts(ada);
    const google = section.getByRole("region", { name: "Google" });
    const github = section.getByRole("region", { name: "GitHub" });
    const githubItem = github.getByRole("list", { name: "Your GitHub accounts" }).getByRole("listitem").filter({ hasText: adaEmail });
    await githubItem.waitFor();
    await githubItem.locator(".lk-badge").filter({ hasText: "Sign-in" }).waitFor();
    await github.getByRole("button", { name: "Connect another GitHub account" }).waitFor();
    await google.getByText("Not connected.").waitFor();

    // GitHub is how Ada signed up, and she has no password: it is her only way in, and stays.
    await expectOnlyWayIn(githubItem, adaEmail, true);
    await github.screenshot({ path: join(screenshots, "oauth-only-way-in.png") });

    await google.getByRole("button", { name: "Connect Google account" }).click();
    await signInAtProvider(ada, adaGoogleEmail);
    await onPath(ada, "/handler/account-settings");
    const item = google.getByRole("listitem").filter({ hasText: adaGoogleEmail });
    await item.waitFor();
    // Signing in with it is on, as for any account connected from here, and can be turned off.
    const useForSignIn = item.getByRole("checkbox", { name: "Use for sign-in" });
    expect(await useForSignIn.isChecked()).toBe(true);
    // Clicked rather than unchecked: the box shows the saved state, so it changes only once the server has agreed.
    await useForSignIn.click();
    await section
      .getByRole("status")
      .filter({ hasText: `${adaGoogleEmail} no longer signs you in.` })
      .waitFor();
    await expect.poll(() => useForSignIn.isChecked()).toBe(false);
    // With Google no longer signing her in, GitHub is her only way in again.
    await expectOnlyWayIn(githubItem, adaEmail, true);
    await useForSignIn.click();
    await section
      .getByRole("status")
      .filter({ hasText: `You can now sign in with ${adaGoogleEmail}.` })
      .waitFor();
    await expect.poll(() => useForSignIn.isChecked()).toBe(true);
    await expectOnlyWayIn(githubItem, adaEmail, false);
    await section.screenshot({ path: join(screenshots, "oauth-connected-accounts.png") });
  });

  test("when the account list cannot be read, the section says so (no endless Loading…) and reads it again on Try again", async () => {
    const listUrl = "**/api/v1/oauth-providers?*";
    await ada.route(listUrl, (route) => route.fulfill({ status: 503, body: "unavailable" }));
    await ada.goto(`${demoUrl}/handler/account-settings`);
    const section = connectedAccounts(ada);
    await section.getByRole("alert").filter({ hasText: "Something went wrong. Please try again." }).waitFor();
    expect(await section.getByText("Loading…").count()).toBe(0);
    await ada.unroute(listUrl);
    await section.getByRole("button", { name: "Try again" }).click();
    await section.getByRole("region", { name: "Google" }).getByRole("listitem").filter({ hasText: adaGoogleEmail }).waitFor();
    expect(await section.getByRole("alert").count()).toBe(0);
  });

  test("useConnectedAccount on an app page: the connection of a user with GitHub, null for one who signed up with Google", async () => {
    await ada.goto(`${demoUrl}/github`);
    await ada.getByText("Your GitHub account is connected.").waitFor();
    const hedy = await demo.openPage();
    await hedy.goto(`${demoUrl}/handler/sign-up`);
    await hedy.getByRole("button", { name: "Sign up with Google" }).click();
    await signInAtProvider(hedy, "hedy@example.com");
    await onPath(hedy, "/");
    await hedy.goto(`${demoUrl}/github`);
    await hedy.getByText("No GitHub account is connected.").waitFor();
  });

  test("a second browser signing in with Google under Ada's e-mail: raise_error refuses on the callback page, link_method signs in as Ada", async () => {
    const other = await demo.openPage();
    await other.goto(`${demoUrl}/handler/sign-in`);
    await other.getByRole("button", { name: "Sign in with Google" }).click();
    await signInAtProvider(other, adaEmail);
    await onPath(other, "/handler/oauth-callback");
    await other.getByRole("heading", { name: "Sign-in failed" }).waitFor();
    await other.getByRole("alert").filter({ hasText: "is already used for sign-in by another account" }).waitFor();
    await other.getByRole("link", { name: "Back to sign in" }).click();
    await onPath(other, "/handler/sign-in");

    await project.project.update({ config: { oauthAccountMergeStrategy: "link_method" } });
    await other.getByRole("button", { name: "Sign in with Google" }).click();
    const exchanged = tokenResponse(other);
    await signInAtProvider(other, adaEmail);
    expect((await exchanged).is_new_user).toBe(false);
    await onPath(other, "/");
    await other.getByText(`Signed in as ${adaEmail}`).waitFor();

    // Ada's account now holds that Google account too.
    await ada.goto(`${demoUrl}/handler/account-settings`);
    const google = connectedAccounts(ada).getByRole("region", { name: "Google" });
    await google.getByRole("listitem").filter({ hasText: adaEmail }).waitFor();
    expect(await google.getByRole("listitem").count()).toBe(2);
  });

  test("Disconnect asks first, then removes the account; focus moves to Connect", async () => {
    await ada.goto(`${demoUrl}/handler/account-settings`);
    const section = connectedAccounts(ada);
    const google = section.getByRole("region", { name: "Google" });
    const item = google.getByRole("listitem").filter({ hasText: adaGoogleEmail });
    await item.getByRole("button", { name: `Disconnect ${adaGoogleEmail}` }).click();
    await item.getByRole("button", { name: "Disconnect", exact: true }).click();
    await section.getByRole("status").filter({ hasText: "Google account disconnected." }).waitFor();
    await expect.poll(() => google.getByRole("listitem").allTextContents()).toEqual([expect.stringContaining(adaEmail)]);
    expect(
      await google.getByRole("button", { name: "Connect another Google account" }).evaluate((el) => el === document.activeElement),
    ).toBe(true);
  });

  test("back from the provider's page without signing in, the buttons work again", async () => {
    const page = await demo.openPage();
    await page.goto(`${demoUrl}/handler/sign-in`);
    // The provider's address is asked for first: held here, to see that one click locks the whole group meanwhile.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const authorize = (url: URL) => url.pathname.includes("/auth/oauth/authorize/");
    await page.route(authorize, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Sign in with GitHub" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Sign in with Google" }).isDisabled()).toBe(true);
    release();
    await onProviderPage(page);
    await page.unroute(authorize);
    await page.goBack();
    await onPath(page, "/handler/sign-in");
    await page.getByRole("button", { name: "Sign in with Google" }).click();
    await onProviderPage(page);
    // The provider's page names the client that asks: the Google one this time.
    await page.getByText("google", { exact: true }).waitFor();
  });

  test("denying access on the provider's page shows the denial on the callback page", async () => {
    const page = await demo.openPage();
    await page.goto(`${demoUrl}/handler/sign-in`);
    await page.getByRole("button", { name: "Sign in with GitHub" }).click();
    await onProviderPage(page);
    await page.getByRole("button", { name: "Deny access" }).click();
    await onPath(page, "/handler/oauth-callback");
    await page
      .getByRole("alert")
      .filter({ hasText: "The OAuth provider denied access: the user cancelled or did not grant the requested permissions." })
      .waitFor();
    await page.getByRole("link", { name: "Back to sign in" }).waitFor();
  });

  test("a callback page opened again after it signed someone in has nothing to do", async () => {
    const page = await demo.openPage();
    await page.goto(`${demoUrl}/handler/sign-in`);
    await page.getByRole("button", { name: "Sign in with GitHub" }).click();
    const callbackRequest = page.waitForRequest(
      (request) => request.isNavigationRequest() && new URL(request.url()).pathname === "/handler/oauth-callback",
    );
    await signInAtProvider(page, adaEmail);
    const callback = (await callbackRequest).url();
    expect(new URL(callback).searchParams.get("code")).toBeTruthy();
    await onPath(page, "/");
    await page.getByText(`Signed in as ${adaEmail}`).waitFor();

    // The same code again, in this browser (its verifier is spent) and in a fresh one (it never had it).
    let exchanges = 0;
    for (const again of [page, await demo.openPage()]) {
      again.on("request", (request) => {
        if (request.url().endsWith("/auth/oauth/token")) exchanges += 1;
      });
      await again.goto(callback);
      await again.getByText("There is no sign-in to finish on this page").waitFor();
      await again.getByRole("link", { name: "Go to sign in" }).waitFor();
    }
    expect(exchanges).toBe(0);
  });

  test("a user with two-factor signs in with GitHub, types the app's code on the MFA page, and lands where the sign-in started", async () => {
    const grace = await demo.openPage();
    await grace.goto(`${demoUrl}/handler/sign-up`);
    await grace.getByRole("button", { name: "Sign up with GitHub" }).click();
    await signInAtProvider(grace, graceEmail, "Grace Hopper");
    await onPath(grace, "/");
    setupKeyOfGrace = await turnOnTwoFactor(grace);
    await signOut(grace);

    await grace.goto(`${demoUrl}/protected`);
    await grace.waitForURL((url) => url.pathname === "/handler/sign-in" && url.searchParams.get("after_auth_return_to") === "/protected");
    await grace.getByRole("button", { name: "Sign in with GitHub" }).click();
    await signInAtProvider(grace, graceEmail);
    await grace.waitForURL((url) => url.pathname === "/handler/mfa" && url.searchParams.get("after_auth_return_to") === "/protected");
    await grace.getByLabel("Six-digit code", { exact: true }).pressSequentially(appCode(setupKeyOfGrace));
    await onPath(grace, "/protected");
    await grace.getByText(`Protected page for ${graceEmail}`).waitFor();
    gracePage = grace;
  });

  test("that user connects a Google account: no second factor asked again, and the same session goes on", async () => {
    const grace = gracePage;
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
    const grace = gracePage;
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

  test("a provider the project turns off after the page loaded: its button says so in words, and the page stays", async () => {
    const page = await demo.openPage();
    await page.goto(`${demoUrl}/handler/sign-in`);
    const google = page.getByRole("button", { name: "Sign in with Google" });
    await google.waitFor();
    await project.project.update({ config: { oauthProviders: [{ id: "github", type: "shared" }] } });
    try {
      await google.click();
      await page.getByRole("alert").filter({ hasText: "This OAuth provider does not exist or is not enabled for this project." }).waitFor();
      expect(new URL(page.url()).pathname).toBe("/handler/sign-in");
      // The buttons are usable again, and the keyboard focus is back on the one clicked.
      await expect.poll(() => google.evaluate((el) => el === document.activeElement)).toBe(true);
      expect(await page.getByRole("button", { name: "Sign in with GitHub" }).isDisabled()).toBe(false);
      await page.locator(".lk-card").screenshot({ path: join(screenshots, "oauth-sign-in-provider-off.png") });
    } finally {
      await project.project.update({
        config: {
          oauthProviders: [
            { id: "github", type: "shared" },
            { id: "google", type: "shared" },
          ],
        },
      });
    }
  });
});
