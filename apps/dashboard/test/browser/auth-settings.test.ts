/**
 * The project's authentication settings as an owner changes them in the
 * dashboard: sign-in methods, an OAuth provider with the project's own keys
 * and the merge strategy, trusted domains and production mode. Every change
 * is read back through the SDK, so what the page shows is what the server holds.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { expectHeading, ownerWithProject, screenshot, signInOwner, startDashboard, type Dashboard } from "./dashboard.ts";

let dashboard: Dashboard;
let page: Page;
let owner: Awaited<ReturnType<typeof ownerWithProject>>;

const settings = () => owner.project.app.getProject();
const projectUrl = (path: string) => `${dashboard.url}/projects/${owner.id}/${path}`;
const setting = (name: string | RegExp) => page.getByRole("switch", { name });

beforeAll(async () => {
  dashboard = await startDashboard();
  owner = await ownerWithProject(dashboard.url);
  page = await dashboard.openPage();
  await signInOwner(page, dashboard.url, owner.email);
});

afterAll(async () => {
  await dashboard?.close();
});
afterEach(() => dashboard.expectNoPageErrors());

describe("auth methods", () => {
  test("passkeys on and sign-up off, as the server holds them", async () => {
    await page.goto(projectUrl("auth-methods"));
    await expectHeading(page, "Auth methods");
    expect(await setting(/^Passkeys/).isChecked()).toBe(false);
    await setting(/^Passkeys/).click();
    await expect.poll(() => setting(/^Passkeys/).isChecked()).toBe(true);
    expect(await setting(/^Allow sign-up/).isChecked()).toBe(true);
    await setting(/^Allow sign-up/).click();
    await expect.poll(() => setting(/^Allow sign-up/).isChecked()).toBe(false);
    const saved = await settings();
    expect(saved.config.passkeyEnabled).toBe(true);
    expect(saved.config.signUpEnabled).toBe(false);
    await screenshot(page, "auth-methods");
  });
});

describe("OAuth providers", () => {
  test("GitHub with the project's own keys: the callback URL to paste, the secret kept but never shown", async () => {
    await page.goto(projectUrl("oauth-providers"));
    await expectHeading(page, "OAuth providers");
    const github = page.getByRole("listitem", { name: "GitHub" });
    expect(await github.getByText("Off").count()).toBe(1);
    await github.getByRole("button", { name: /Set up/ }).click();
    const dialog = page.getByRole("dialog", { name: "GitHub" });
    await dialog.getByRole("switch", { name: /Offer sign-in with GitHub/ }).check();
    await dialog.getByRole("radio", { name: /Your own keys/ }).check();
    expect(await dialog.getByLabel("Callback URL").inputValue()).toBe(`${dashboard.url}/api/v1/auth/oauth/callback/github`);
    await dialog.getByLabel("Client ID").fill("gh-client-id");
    await dialog.getByLabel("Client secret").fill("gh-client-secret-1234");
    await screenshot(page, "oauth-provider-github");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => github.getByText("On · own keys").count()).toBe(1);
    expect(new URL(page.url()).searchParams.get("provider")).toBeNull();
    const saved = (await settings()).config.oauthProviders.find((p) => p.id === "github");
    expect(saved).toMatchObject({ type: "standard", clientId: "gh-client-id", clientSecret: "********1234" });
    // The stored secret stays when the owner edits the provider without typing it again.
    await github.getByRole("button", { name: /Edit/ }).click();
    await expect.poll(() => dialog.getByText("A secret is saved (********1234)").count()).toBe(1);
    await dialog.getByLabel("Client ID").fill("gh-client-id-2");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect.poll(async () => (await settings()).config.oauthProviders.find((p) => p.id === "github")?.clientId).toBe("gh-client-id-2");
    expect((await settings()).config.oauthProviders.find((p) => p.id === "github")?.clientSecret).toBe("********1234");
  });

  test("the merge strategy", async () => {
    await page.goto(projectUrl("oauth-providers"));
    const refuse = page.getByRole("radio", { name: /Refuse the sign-in/ });
    // The choice moves once the server has saved it, not on the click itself.
    await refuse.click();
    await expect.poll(async () => (await settings()).config.oauthAccountMergeStrategy).toBe("raise_error");
    await expect.poll(() => refuse.isChecked()).toBe(true);
    await screenshot(page, "oauth-providers");
    await page.getByLabel("Theme").selectOption("dark");
    await screenshot(page, "oauth-providers-dark");
    await page.getByLabel("Theme").selectOption("system");
  });
});

describe("domains and production mode", () => {
  test("the checklist names each problem with a link to its fix; fixed, production mode turns on", async () => {
    await page.goto(projectUrl("domains"));
    await expectHeading(page, "Domains");
    // The bad domain second, so its fix link must name its own row, not the first.
    for (const domain of ["https://app.example.com", "http://localhost:3000"]) {
      await page.getByRole("button", { name: "Add domain" }).click();
      const dialog = page.getByRole("dialog", { name: "Add a domain" });
      await dialog.getByLabel("Domain").fill(domain);
      await dialog.getByRole("button", { name: "Add domain" }).click();
      await expect.poll(() => page.getByRole("row", { name: new RegExp(domain) }).count()).toBe(1);
    }
    expect(await setting(/^Allow localhost/).isChecked()).toBe(true);
    // An address the server refuses: its reason, and nothing added.
    await page.getByRole("button", { name: "Add domain" }).click();
    const adding = page.getByRole("dialog", { name: "Add a domain" });
    await adding.getByLabel("Domain").fill("ftp://files.example.com");
    await adding.getByRole("button", { name: "Add domain" }).click();
    await expect.poll(() => adding.getByRole("alert").textContent()).toContain("is not a valid trusted domain");
    await adding.getByRole("button", { name: "Cancel" }).click();
    expect((await settings()).config.domains).toHaveLength(2);

    const checklist = page.getByRole("list", { name: "Production mode checklist" });
    const localhostMessage = "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings";
    const domainMessage = "Localhost domains are not allowed to be trusted in production mode: http://localhost:3000";
    await expect
      .poll(() => checklist.getByRole("listitem").allTextContents())
      .toEqual([expect.stringContaining(localhostMessage), expect.stringContaining(domainMessage)]);
    expect(await setting(/^Production mode/).isDisabled()).toBe(true);
    const fixIt = (message: string) =>
      checklist
        .getByRole("listitem")
        .filter({ hasText: message })
        .getByRole("link", { name: /Fix it/ });
    await screenshot(page, "domains");

    // Each "Fix it" follows the server's link, whose anchor is the setting itself.
    expect(await fixIt(domainMessage).getAttribute("href")).toBe(`/projects/${owner.id}/domains#trusted-domain-1`);
    await fixIt(domainMessage).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("trusted-domain-1");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain("http://localhost:3000");
    await page
      .getByRole("row", { name: /localhost:3000/ })
      .getByRole("button", { name: /Remove/ })
      .click();
    await page.getByRole("dialog", { name: "Remove this domain?" }).getByRole("button", { name: "Remove domain" }).click();
    await expect.poll(() => page.getByRole("row", { name: /localhost:3000/ }).count()).toBe(0);

    expect(await fixIt(localhostMessage).getAttribute("href")).toBe(`/projects/${owner.id}/domains#allow-localhost`);
    await fixIt(localhostMessage).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("allow-localhost");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain("Allow localhost");
    await setting(/^Allow localhost/).click();
    await expect.poll(() => page.getByText("Every check passes.").count()).toBe(1);

    await expect.poll(() => setting(/^Production mode/).isDisabled()).toBe(false);
    await setting(/^Production mode/).click();
    await expect.poll(() => setting(/^Production mode/).isChecked()).toBe(true);
    const saved = await settings();
    expect(saved.isProductionMode).toBe(true);
    expect(saved.config.allowLocalhost).toBe(false);
    expect(saved.config.domains).toEqual([{ domain: "https://app.example.com", handlerPath: "/handler" }]);

    // In production mode the server refuses what the checks forbid, and the page says why.
    await setting(/^Allow localhost/).click();
    await expect.poll(() => page.getByRole("alert").filter({ hasText: localhostMessage }).count()).toBe(1);
    expect(await setting(/^Allow localhost/).isChecked()).toBe(false);
    expect((await settings()).config.allowLocalhost).toBe(false);
  });
});
