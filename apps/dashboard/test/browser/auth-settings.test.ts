/**
 * The project's authentication settings as an owner changes them in the
 * dashboard: sign-in methods, e-mail verification, an OAuth provider with the
 * project's own keys and the merge strategy, trusted domains and production
 * mode. Every change is read back through the SDK, so what the page shows is
 * what the server holds: as the config key the page wrote to the
 * environment's override (through the config API, not the project's PATCH),
 * and in the project's older view, which reads the same keys.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import {
  dashboardWithOwner,
  expectHeading,
  flipSetting,
  recordAdminWrites,
  screenshot,
  type Dashboard,
  type ProjectOwner,
} from "./dashboard.ts";

let dashboard: Dashboard;
let page: Page;
let owner: ProjectOwner;
let writes: ReturnType<typeof recordAdminWrites>;

const settings = () => owner.project.app.getProject();
/** The environment's override as stored: where the dashboard writes the settings. */
const environment = () => owner.project.getConfigOverride("environment");
const THROUGH_CONFIG = "PATCH /internal/config/override/environment";

/** Every settings write since the last check went through the config API. */
function expectWritesThroughConfig(): void {
  const taken = writes.take();
  expect(taken.length).toBeGreaterThan(0);
  expect(new Set(taken)).toEqual(new Set([THROUGH_CONFIG]));
}
const projectUrl = (path: string) => `${dashboard.url}/projects/${owner.id}/${path}`;
const setting = (name: string | RegExp) => page.getByRole("switch", { name });

beforeAll(async () => {
  ({ dashboard, owner, page } = await dashboardWithOwner());
  // Counted from here: signing in is not a settings write.
  writes = recordAdminWrites(page);
});
afterAll(() => dashboard?.close());
afterEach(() => dashboard.expectNoPageErrors());

describe("auth methods", () => {
  test("passkeys on and sign-up off, as the server holds them", async () => {
    await page.goto(projectUrl("auth-methods"));
    await expectHeading(page, "Auth methods");
    await flipSetting(page, /^Passkeys/, false);
    await flipSetting(page, /^Allow sign-up/, true);
    const saved = await settings();
    expect(saved.config.passkeyEnabled).toBe(true);
    expect(saved.config.signUpEnabled).toBe(false);
    expect(await environment()).toMatchObject({ "auth.passkey.allowSignIn": true, "auth.allowSignUp": false });
    expectWritesThroughConfig();
    await screenshot(page, "auth-methods");
  });

  test("e-mail verification shows what the config holds, and writes its key", async () => {
    await owner.project.updateConfig({ "onboarding.requireEmailVerification": true });
    await page.goto(projectUrl("auth-methods"));
    await expectHeading(page, "Auth methods");
    await expect.poll(() => setting(/^Require e-mail verification/).isChecked()).toBe(true);
    writes.take();
    await flipSetting(page, /^Require e-mail verification/, true);
    expect((await environment())["onboarding.requireEmailVerification"]).toBe(false);
    expect((await owner.project.getConfig()).onboarding.requireEmailVerification).toBe(false);
    expectWritesThroughConfig();
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
    expect((await environment())["auth.oauth.providers.github"]).toEqual({
      type: "github",
      isShared: false,
      clientId: "gh-client-id",
      clientSecret: "********1234",
      allowSignIn: true,
      allowConnectedAccounts: true,
    });
    // The stored secret stays when the owner edits the provider without typing it again.
    await github.getByRole("button", { name: /Edit/ }).click();
    await expect.poll(() => dialog.getByText("A secret is saved (********1234)").count()).toBe(1);
    await dialog.getByLabel("Client ID").fill("gh-client-id-2");
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect.poll(async () => (await settings()).config.oauthProviders.find((p) => p.id === "github")?.clientId).toBe("gh-client-id-2");
    expect((await settings()).config.oauthProviders.find((p) => p.id === "github")?.clientSecret).toBe("********1234");
    expect((await owner.project.getConfig()).auth.oauth.providers.github).toMatchObject({
      clientId: "gh-client-id-2",
      clientSecret: "********1234",
    });
    expectWritesThroughConfig();

    // Turned off, the provider's entry is removed, keys and all.
    await github.getByRole("button", { name: /Edit/ }).click();
    await dialog.getByRole("switch", { name: /Offer sign-in with GitHub/ }).uncheck();
    await dialog.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => github.getByText("Off").count()).toBe(1);
    expect((await environment())["auth.oauth.providers.github"]).toBeNull();
    // The owner's SDK may answer its read of a moment ago (its cache's throttle): it reads again after that.
    await expect.poll(async () => (await owner.project.getConfig()).auth.oauth.providers).toEqual({});
    expectWritesThroughConfig();
  });

  test("the merge strategy", async () => {
    await page.goto(projectUrl("oauth-providers"));
    const refuse = page.getByRole("radio", { name: /Refuse the sign-in/ });
    // The choice moves once the server has saved it, not on the click itself.
    await refuse.click();
    await expect.poll(async () => (await settings()).config.oauthAccountMergeStrategy).toBe("raise_error");
    await expect.poll(() => refuse.isChecked()).toBe(true);
    expect((await environment())["auth.oauth.accountMergeStrategy"]).toBe("raise_error");
    expectWritesThroughConfig();
    await screenshot(page, "oauth-providers");
    await page.getByLabel("Theme").selectOption("dark");
    await screenshot(page, "oauth-providers-dark");
    await page.getByLabel("Theme").selectOption("system");
  });
});

describe("domains and production mode", () => {
  test("the checklist names each problem with a link to its fix, localhost as a warning; fixed, production mode turns on", async () => {
    await page.goto(projectUrl("domains"));
    await expectHeading(page, "Domains");
    // The bad domains after a good one, so each fix link must name its own row, not the first.
    for (const domain of ["https://app.example.com", "http://localhost:3000", "http://plain.example.com"]) {
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
    expect((await settings()).config.domains).toHaveLength(3);
    // Each domain is an entry of its own under domains.trustedDomains.
    const entries = Object.entries(await environment()).filter(([key]) => key.startsWith("domains.trustedDomains."));
    expect(entries.map(([, value]) => value)).toEqual([
      { baseUrl: "https://app.example.com", handlerPath: "/handler" },
      { baseUrl: "http://localhost:3000", handlerPath: "/handler" },
      { baseUrl: "http://plain.example.com", handlerPath: "/handler" },
    ]);
    expectWritesThroughConfig();

    const checklist = page.getByRole("list", { name: "Production mode checklist" });
    const httpsMessage = "Trusted domains should be HTTPS: http://plain.example.com";
    const localhostMessage = "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings";
    const domainMessage = "Localhost domains are not allowed to be trusted in production mode: http://localhost:3000";
    // What keeps production mode off first, then what it only warns about.
    await expect
      .poll(() => checklist.getByRole("listitem").allTextContents())
      .toEqual([
        expect.stringContaining(httpsMessage),
        expect.stringContaining(`Warning: ${localhostMessage}`),
        expect.stringContaining(`Warning: ${domainMessage}`),
      ]);
    expect(await checklist.getByRole("listitem").first().textContent()).not.toContain("Warning");
    expect(await setting(/^Production mode/).isDisabled()).toBe(true);
    const fixIt = (message: string) =>
      checklist
        .getByRole("listitem")
        .filter({ hasText: message })
        .getByRole("link", { name: /Fix it/ });
    await screenshot(page, "domains");

    // Each "Fix it" follows the server's link, whose anchor is the setting itself.
    expect(await fixIt(domainMessage).getAttribute("href")).toBe(`/projects/${owner.id}/domains#trusted-domain-1`);
    expect(await fixIt(localhostMessage).getAttribute("href")).toBe(`/projects/${owner.id}/domains#allow-localhost`);
    expect(await fixIt(httpsMessage).getAttribute("href")).toBe(`/projects/${owner.id}/domains#trusted-domain-2`);
    await fixIt(httpsMessage).click();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe("trusted-domain-2");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toContain("http://plain.example.com");
    await page
      .getByRole("row", { name: /plain\.example\.com/ })
      .getByRole("button", { name: /Remove/ })
      .click();
    await page.getByRole("dialog", { name: "Remove this domain?" }).getByRole("button", { name: "Remove domain" }).click();
    await expect.poll(() => page.getByRole("row", { name: /plain\.example\.com/ }).count()).toBe(0);

    // Only warnings left: the switch is free, and production mode turns on with localhost still allowed.
    await expect.poll(() => checklist.getByRole("listitem").count()).toBe(2);
    await expect.poll(() => setting(/^Production mode/).isDisabled()).toBe(false);
    await flipSetting(page, /^Production mode/, false);
    const saved = await settings();
    expect(saved.isProductionMode).toBe(true);
    expect(saved.config.allowLocalhost).toBe(true);
    expect(saved.config.domains).toEqual([
      { domain: "https://app.example.com", handlerPath: "/handler" },
      { domain: "http://localhost:3000", handlerPath: "/handler" },
    ]);

    // In production mode, localhost may still be switched off and on again; the warning follows.
    writes.take();
    await flipSetting(page, /^Allow localhost/, true);
    await expect.poll(() => checklist.getByRole("listitem").allTextContents()).toEqual([expect.stringContaining(domainMessage)]);
    await flipSetting(page, /^Allow localhost/, false);
    await expect.poll(() => checklist.getByRole("listitem").count()).toBe(2);
    expect((await settings()).config.allowLocalhost).toBe(true);
    expect(writes.take()).toEqual([THROUGH_CONFIG, THROUGH_CONFIG]);
  });
});
