/**
 * OAuth in a real browser, through the real redirect dance (oauth-story.ts
 * sets the stage: the demo app, a server, the development provider). One
 * story, in order: Ada signs up with GitHub, signs out, signs in again with
 * GitHub (once from a page that sends her back where she was), connects a
 * Google account from account settings, where her only way in cannot be
 * turned off, and an app page (useConnectedAccount) finds her GitHub
 * connection but not that of Hedy, who signed up with Google; a second
 * browser signs in with Google under Ada's e-mail, refused while the
 * project's merge strategy is raise_error and signed in as Ada under
 * link_method. Then a denial on the provider's page, a callback page opened
 * again after it was used, and a provider turned off under a loaded page.
 * Two-factor users: oauth-two-factor.test.ts. Screenshots go to
 * test-artifacts/ (copies of a run are kept in docs/screenshots/).
 */
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { SdkProject } from "../../../js/test/server/fixtures.ts";
import type { TestServer } from "../../../server/test/harness.ts";
import type { DemoApp } from "./demo-app.ts";
import {
  connectedAccounts,
  onPath,
  onProviderPage,
  screenshots,
  signInAtProvider,
  signOut,
  startOAuthStory,
  type OAuthStory,
} from "./oauth-story.ts";

// Fixed addresses (the server's database and the provider are new for each run): they read well in the screenshots.
const adaEmail = "ada@example.com";
/** The Google account Ada connects: another address of hers, so her sign-in address stays free at Google for the merge tests. */
const adaGoogleEmail = "ada.lovelace@example.org";

let story: OAuthStory;
let server: TestServer;
let project: SdkProject;
let demo: DemoApp;
let demoUrl: string;
let ada: Page;

beforeAll(async () => {
  story = await startOAuthStory();
  ({ server, project, demo, demoUrl } = story);
  ada = await demo.openPage();
  await ada.goto(`${demoUrl}/`);
  await ada.getByRole("link", { name: "Sign in" }).waitFor();
});

afterAll(async () => {
  await story?.close();
});

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

const DARK_THEME = `
  body { background: #101014; }
  .lk-root.lk-root { --lk-text: #ececf2; --lk-muted: #a3a3b2; --lk-background: #18181e; --lk-surface: #24242c; --lk-border: #3a3a46; --lk-primary: #8b85ff; --lk-primary-text: #101014; }
`;

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
