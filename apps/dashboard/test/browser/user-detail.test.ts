/**
 * A user's detail page, opened by URL: the profile, metadata as JSON
 * (invalid refused, valid saved), revoking one of two sessions (its refresh
 * token stops working, the other's still works), impersonating in the demo
 * app (the project's trusted domain: asked first when the browser holds
 * another session of the app; its banner in every tab of the app), and deletion.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import type { ServerUser } from "../../../../packages/js/src/index.ts";
import { clientAppOf, refreshWith } from "../../../../packages/js/test/server/fixtures.ts";
import { startDemoApp, type DemoApp } from "../../../../packages/react/test/browser/demo-app.ts";
import {
  PASSWORD,
  expectHeading,
  ownerWithProject,
  screenshot,
  signInOwner,
  startDashboard,
  uniqueEmail,
  type Dashboard,
} from "./dashboard.ts";

let dashboard: Dashboard;
let demo: DemoApp;
let owner: Awaited<ReturnType<typeof ownerWithProject>>;
let page: Page;
let user: ServerUser;
let email: string;
/** The refresh tokens of the user's two sign-ins. */
let refreshTokens: string[];

beforeAll(async () => {
  dashboard = await startDashboard();
  owner = await ownerWithProject(dashboard.url);
  email = uniqueEmail("detail");
  // Three independent set-ups at once: the demo app (its first visit makes Vite bundle it), the user, the owner's sign-in.
  await Promise.all([
    (async () => {
      demo = await startDemoApp({
        VITE_LATCHKEY_API_URL: dashboard.url,
        VITE_LATCHKEY_PROJECT_ID: owner.id,
        VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: owner.publishableClientKey,
      });
      // The demo app is the project's own app: impersonation opens it, passing over a wildcard domain, which names no page.
      await owner.project.update({
        config: {
          domains: [
            { domain: "https://*.example.com", handlerPath: "/handler" },
            { domain: demo.url, handlerPath: "/handler" },
          ],
        },
      });
      const warm = await demo.openPage();
      await warm.goto(`${demo.url}/`);
      await warm.getByText("You are not signed in yet.").waitFor({ timeout: 30_000 });
    })(),
    (async () => {
      user = await owner.project.app.createUser({
        primaryEmail: email,
        primaryEmailAuthEnabled: true,
        password: PASSWORD,
        displayName: "Ada Lovelace",
      });
      refreshTokens = [];
      for (let i = 0; i < 2; i++) {
        const client = clientAppOf(dashboard.url, owner);
        expect((await client.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
        refreshTokens.push((await client.getRefreshToken())!);
      }
    })(),
    (async () => {
      page = await dashboard.openPage();
      await signInOwner(page, dashboard.url, owner.email);
    })(),
  ]);
}, 60_000);

afterAll(async () => {
  await demo?.close();
  await dashboard?.close();
});
afterEach(() => dashboard.expectNoPageErrors());

const card = (title: string) => page.getByRole("region", { name: title, exact: true });

describe("a user's detail page", () => {
  test("shows the profile", async () => {
    await page.goto(`${dashboard.url}/projects/${owner.id}/users/${user.id}`);
    await expectHeading(page, "Ada Lovelace");
    const profile = card("Profile");
    await expect.poll(() => profile.getByText(email, { exact: true }).count()).toBe(1);
    expect(await profile.getByText(user.id, { exact: true }).count()).toBe(1);
    expect(await profile.getByLabel("Display name").inputValue()).toBe("Ada Lovelace");
    await expect
      .poll(() =>
        card("Sessions")
          .getByRole("button", { name: /^Revoke/ })
          .count(),
      )
      .toBe(2);
    await screenshot(page, "user-detail");
  });

  test("refuses invalid JSON with the parser's words, and saves valid JSON", async () => {
    const editor = page.getByLabel("Client metadata", { exact: true });
    const save = page.getByRole("button", { name: "Save client metadata" });
    await editor.fill('{"plan": }');
    await expect.poll(() => page.getByText("Invalid JSON: Value expected at line 1, column 10.").count()).toBe(1);
    expect(await save.isDisabled()).toBe(true);
    await editor.fill('{"plan": "pro", "seats": 3}');
    expect(await page.getByText(/^Invalid JSON/).count()).toBe(0);
    await save.click();
    await expect.poll(() => page.getByText("Client metadata saved.").count()).toBe(1);
    expect((await owner.project.app.getUser(user.id))!.clientMetadata).toEqual({ plan: "pro", seats: 3 });
  });

  test("deleting an address and turning off two-factor ask first, and Cancel changes nothing", async () => {
    const second = uniqueEmail("second");
    await user.createContactChannel({ type: "email", value: second, usedForAuth: false, isVerified: false });
    await user.update({ totpMultiFactorSecret: crypto.getRandomValues(new Uint8Array(20)) });
    await page.reload();
    await expectHeading(page, "Ada Lovelace");

    await page.getByRole("button", { name: `Delete ${second}` }).click();
    const ask = page.getByRole("dialog", { name: "Delete this address?" });
    await ask.getByRole("button", { name: "Cancel" }).click();
    expect((await user.listContactChannels()).map((c) => c.value)).toContain(second);
    await page.getByRole("button", { name: `Delete ${second}` }).click();
    await ask.getByRole("button", { name: "Delete address" }).click();
    await expect.poll(async () => (await user.listContactChannels()).map((c) => c.value)).not.toContain(second);

    await page.getByRole("button", { name: "Turn off two-factor" }).click();
    await page.getByRole("dialog", { name: "Turn off two-factor authentication?" }).getByRole("button", { name: "Turn it off" }).click();
    await expect.poll(async () => (await owner.project.app.getUser(user.id))!.isMultiFactorRequired).toBe(false);
  });

  test("revoking a session ends its refresh token; the other session still refreshes", async () => {
    const sessions = card("Sessions");
    await sessions
      .getByRole("button", { name: /^Revoke/ })
      .first()
      .click();
    await expect.poll(() => sessions.getByRole("button", { name: /^Revoke/ }).count()).toBe(1);
    const answers = await Promise.all(
      refreshTokens.map(async (token) => {
        const response = await refreshWith(dashboard.url, owner, token);
        return response.headers.get("x-stack-known-error") ?? String(response.status);
      }),
    );
    expect(answers.sort()).toEqual(["200", "REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED"]);
  });

  test("impersonating asks before replacing the app's own session, then marks the session in every tab, until it ends", async () => {
    // The browser is signed in to the app as someone else, the admin themselves say.
    const other = uniqueEmail("app-owner-self");
    await owner.project.app.createUser({
      primaryEmail: other,
      primaryEmailAuthEnabled: true,
      password: PASSWORD,
      displayName: "Grace Hopper",
    });
    const client = clientAppOf(dashboard.url, owner);
    expect((await client.signInWithCredential({ email: other, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    const ownRefreshToken = (await client.getRefreshToken())!;
    await page.context().addCookies([{ name: `stack-refresh-${owner.id}`, value: encodeURIComponent(ownRefreshToken), url: demo.url }]);

    const [tab] = await Promise.all([page.waitForEvent("popup"), page.getByRole("button", { name: "Impersonate" }).click()]);
    const replace = tab.getByRole("button", { name: "Replace my session and impersonate" });
    await replace.waitFor({ timeout: 20_000 });
    expect(await tab.getByText("This browser is signed in to this app as Grace Hopper.").count()).toBe(1);
    expect(new URL(tab.url()).hash).toBe("");
    await screenshot(tab, "user-detail-impersonation-confirm");
    await replace.click();

    await tab.waitForURL((u) => u.origin === demo.url && u.pathname === "/", { timeout: 20_000 });
    const banner = tab.getByRole("status").filter({ hasText: "by impersonation" });
    await banner.waitFor({ timeout: 15_000 });
    expect(await banner.textContent()).toContain("You are signed in as Ada Lovelace by impersonation.");
    await expect.poll(() => tab.getByText(`Signed in as ${email}`).count()).toBe(1);
    await screenshot(tab, "user-detail-impersonation");
    // Another tab of the app shares the session, so it shows the banner too.
    const second = await page.context().newPage();
    await second.goto(`${demo.url}/`);
    const secondBanner = second.getByRole("status").filter({ hasText: "by impersonation" });
    await secondBanner.waitFor({ timeout: 15_000 });
    expect(await secondBanner.textContent()).toContain("You are signed in as Ada Lovelace by impersonation.");
    // The dashboard lists the impersonation among the sessions.
    await expect.poll(() => card("Sessions").getByText("Impersonation", { exact: true }).count()).toBe(1);

    // The mark names the impersonation's session: an ordinary sign-in in its place shows no banner.
    const refreshCookie = `stack-refresh-${owner.id}`;
    const impersonationCookie = (await page.context().cookies(demo.url)).find((c) => c.name === refreshCookie)!;
    await page.context().addCookies([{ name: refreshCookie, value: encodeURIComponent(ownRefreshToken), url: demo.url }]);
    await expect.poll(() => second.getByText(`Signed in as ${other}`).count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => second.getByText("by impersonation").count()).toBe(0);
    await page.context().addCookies([{ name: refreshCookie, value: impersonationCookie.value, url: demo.url }]);
    await banner.waitFor({ timeout: 15_000 });

    await tab.getByRole("button", { name: "End impersonation" }).click();
    await expect.poll(() => tab.getByText("You are not signed in yet.").count(), { timeout: 15_000 }).toBe(1);
    expect(await tab.getByText("by impersonation").count()).toBe(0);
    // The other tab follows the shared session: signed out, no banner.
    await expect.poll(() => second.getByText("You are not signed in yet.").count(), { timeout: 15_000 }).toBe(1);
    expect(await second.getByText("by impersonation").count()).toBe(0);

    await second.close();
    await tab.close();
  });

  test("deleting the user, after typing their e-mail, goes back to the users list", async () => {
    await card("Delete user").getByRole("button", { name: "Delete user" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete this user?" });
    const confirm = dialog.getByRole("button", { name: "Delete user" });
    expect(await confirm.isDisabled()).toBe(true);
    await dialog.getByLabel("Confirm").fill(email);
    await confirm.click();
    await page.waitForURL((u) => u.pathname === `/projects/${owner.id}/users`);
    await expectHeading(page, "Users");
    expect(await owner.project.app.getUser(user.id)).toBeNull();
  });
});
