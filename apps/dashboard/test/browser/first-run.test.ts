/**
 * A new owner's first project, end to end: the sign-in page of a fresh
 * install (no dead provider buttons), the first run (name, keys shown
 * once), the setup page filled with the new key (and only a placeholder
 * after a reload), then the project's settings: rename, a logo URL the
 * server refuses, transfer to another team, and delete by typing the name.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { CurrentInternalUser, StackClientApp } from "../../../../packages/js/src/index.ts";
import { SEED_KEYS } from "../../../../packages/js/test/server/support.ts";
import { expectHeading, PASSWORD, screenshot, signUpOwner, startDashboard, type Dashboard } from "./dashboard.ts";

const run = promisify(execFile);

let dashboard: Dashboard;
let page: Page;
let email: string;
let projectId: string;
let publishableClientKey: string;

beforeAll(async () => {
  dashboard = await startDashboard();
  page = await dashboard.openPage();
});

afterAll(async () => {
  await dashboard?.close();
});
afterEach(() => dashboard.expectNoPageErrors());

/** Runs a snippet in a shell, as a developer pasting it would; resolves with what it printed. */
async function sh(script: string): Promise<string> {
  const { stdout } = await run("sh", ["-c", `${script} --silent --show-error --fail-with-body`]);
  return stdout;
}

/** The top bar's project switcher: the name of the project it shows. */
const switcherShows = () => page.locator(".project-switcher select").evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.text);

describe("the first run", () => {
  test("a fresh install's sign-in page names the dashboard and offers no provider the operator has no keys for", async () => {
    // The internal project lists GitHub, Google, Microsoft and Spotify as shared providers; this server has no shared keys.
    expect(dashboard.server.config.sharedOAuthCredentials).toEqual({});
    await page.goto(`${dashboard.url}/handler/sign-in`);
    // The project's settings have arrived once the code option (magic links are on) shows.
    await page.getByRole("button", { name: "Email me a sign-in code instead" }).waitFor();
    expect(await page.locator(".lk-brand").innerText()).toBe("Latchkey Dashboard");
    expect(await page.getByRole("button", { name: /^Sign in with / }).count()).toBe(0);
    await screenshot(page, "sign-in");
  });

  test("a new owner is welcomed, names a project, sees its keys once, and lands on its setup page", async () => {
    email = await signUpOwner(page, dashboard.url);
    expect(new URL(page.url()).pathname).toBe("/new-project");
    await expectHeading(page, "Welcome to Latchkey");
    await screenshot(page, "first-run");

    await page.getByLabel("Project name").fill("Acme web");
    await page.getByLabel("Description (optional)").fill("The storefront");
    await page.getByRole("button", { name: "Create project" }).click();

    const keyField = page.getByLabel("Publishable client key");
    await expect.poll(() => keyField.count(), { timeout: 15_000 }).toBe(1);
    publishableClientKey = await keyField.inputValue();
    expect(publishableClientKey).toMatch(/^pck_/);
    expect(await page.getByLabel("Secret server key").inputValue()).toMatch(/^ssk_/);
    const done = page.getByRole("button", { name: "Continue to setup" });
    expect(await done.isDisabled()).toBe(true);
    await screenshot(page, "keys-once");
    // Leaving before the keys are copied asks first; staying keeps them on the page.
    await page.getByRole("link", { name: "Latchkey" }).click();
    const leave = page.getByRole("dialog", { name: "Leave without your keys?" });
    await leave.getByRole("button", { name: "Stay and copy them" }).click();
    await expect.poll(() => leave.isVisible()).toBe(false);
    expect(new URL(page.url()).pathname).toBe("/new-project");
    expect(await keyField.inputValue()).toBe(publishableClientKey);
    await page.getByLabel("I have copied the keys somewhere safe").check();
    await done.click();

    await page.waitForURL((u) => /^\/projects\/[^/]+\/setup$/.test(u.pathname));
    projectId = new URL(page.url()).pathname.split("/")[2]!;
    expect(page.url()).not.toContain(publishableClientKey);
    await expectHeading(page, "Setup");
    // The switcher knows the new project without a reload.
    expect(await switcherShows()).toBe("Acme web");
    const panel = page.getByRole("tabpanel");
    await expect.poll(() => panel.textContent()).toContain(`VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY=${publishableClientKey}`);
    expect(await panel.textContent()).toContain(`VITE_LATCHKEY_PROJECT_ID=${projectId}`);
    expect(await panel.textContent()).toContain(`VITE_LATCHKEY_API_URL=${dashboard.url}`);
    // The SDK installs from this server (packages/react/test/packed/ follows the command to a working app).
    expect(await panel.textContent()).toContain(`npm install ${dashboard.url}/sdk/latchkey-js.tgz ${dashboard.url}/sdk/latchkey-react.tgz`);
    await screenshot(page, "setup");

    // The key the snippet holds is the project's and works.
    const answer = await fetch(`${dashboard.url}/api/v1/projects/current`, {
      headers: { "x-stack-access-type": "client", "x-stack-project-id": projectId, "x-stack-publishable-client-key": publishableClientKey },
    });
    expect(answer.status).toBe(200);
    expect(((await answer.json()) as { display_name: string }).display_name).toBe("Acme web");
  });

  test("the guides are tabs the keyboard moves through; the chosen one stays in the URL", async () => {
    await page.getByRole("tab", { name: "React (Vite)" }).focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => page.getByRole("tab", { name: "Next.js" }).getAttribute("aria-selected")).toBe("true");
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe("Next.js");
    await page.keyboard.press("End");
    await expect.poll(() => page.getByRole("tab", { name: "curl" }).getAttribute("aria-selected")).toBe("true");
    expect(new URL(page.url()).searchParams.get("tab")).toBe("curl");
    expect(await page.getByRole("tabpanel").textContent()).toContain(`x-stack-publishable-client-key: ${publishableClientKey}`);
  });

  test("the curl guide, run as shown, signs a user up and reads them back", async () => {
    const [signUp, readMe] = await page.getByRole("tabpanel").locator("pre").allTextContents();
    const signedUp = JSON.parse(await sh(signUp!)) as { access_token: string };
    expect(signedUp.access_token).toBeTruthy();
    const me = JSON.parse(await sh(readMe!.replace("<access_token from the sign-up>", signedUp.access_token))) as { primary_email: string };
    expect(me.primary_email).toBe("ada@example.com");
  });

  test("a reload shows the key's placeholder, never the key, and points to the keys page", async () => {
    await page.reload();
    await expectHeading(page, "Setup");
    const panel = page.getByRole("tabpanel");
    await expect.poll(() => panel.textContent()).toContain("x-stack-publishable-client-key: <your publishable client key>");
    expect(await page.content()).not.toContain(publishableClientKey);
    expect(await page.getByRole("link", { name: "Project keys" }).count()).toBeGreaterThan(0);
  });
});

describe("project settings", () => {
  let secondTeam: string;

  beforeAll(async () => {
    // A second team of the same owner, made through the SDK: the transfer's destination.
    const internal = new StackClientApp({
      baseUrl: dashboard.url,
      projectId: "internal",
      publishableClientKey: SEED_KEYS.publishableClientKey,
      tokenStore: "memory",
    });
    const signedIn = await internal.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    if (signedIn.status !== "ok") throw signedIn.error;
    const owner = await internal.getUser({ or: "throw" });
    if (!(owner instanceof CurrentInternalUser)) throw new Error("The owner is an internal-project user.");
    secondTeam = (await owner.createTeam({ displayName: "Second team" })).displayName;
  });

  test("a rename shows in the switcher and the sidebar; a logo URL the server refuses is marked at its field", async () => {
    await page.goto(`${dashboard.url}/projects/${projectId}/settings`);
    await expectHeading(page, "Project settings");
    await page.getByLabel("Project name").fill("Acme storefront");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(() => page.getByText("Saved.").count()).toBe(1);
    expect(await switcherShows()).toBe("Acme storefront");
    expect(await page.locator(".sidebar-project").textContent()).toBe("Acme storefront");

    await page.getByLabel("Logo URL", { exact: true }).fill("notaurl");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect.poll(() => page.getByText("Logo URL is not a valid URL").count()).toBe(1);
    expect(await page.getByLabel("Logo URL", { exact: true }).getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("Logo URL", { exact: true }).fill("");
  });

  test("the project moves to another team of the owner's, after a confirmation, and is still theirs", async () => {
    await page.getByLabel("New owner team").selectOption({ label: secondTeam });
    await page.getByRole("button", { name: "Transfer…" }).click();
    await page.getByRole("dialog", { name: "Transfer this project?" }).getByRole("button", { name: "Transfer project" }).click();
    await expect.poll(() => page.getByText(`Acme storefront now belongs to ${secondTeam}.`).count()).toBe(1);
    await expect.poll(() => page.getByText(`Owned by ${secondTeam}.`, { exact: false }).count()).toBe(1);
    await screenshot(page, "project-settings");

    await page.getByRole("link", { name: "Latchkey", exact: true }).click();
    await expectHeading(page, "Projects");
    await expect.poll(() => page.getByRole("link", { name: /Acme storefront/ }).count()).toBe(1);
    expect(await page.getByText("Development").count()).toBe(1);
    await screenshot(page, "projects");
    await page.getByRole("link", { name: "New project" }).click();
    await expectHeading(page, "New project");
  });

  test("deleting needs the project's exact name, then the project is gone", async () => {
    await page.goto(`${dashboard.url}/projects/${projectId}/settings`);
    await expectHeading(page, "Project settings");
    const confirm = page.getByLabel("Type “Acme storefront” to confirm");
    const remove = page.getByRole("button", { name: "Delete this project" });
    await confirm.fill("Acme");
    expect(await remove.isDisabled()).toBe(true);
    await confirm.fill("Acme storefront");
    await remove.click();
    await page.waitForURL((u) => u.pathname === "/projects");
    await expect.poll(() => page.getByText("You have no projects yet.").count()).toBe(1);
    const gone = await fetch(`${dashboard.url}/api/v1/projects/current`, {
      headers: { "x-stack-access-type": "client", "x-stack-project-id": projectId, "x-stack-publishable-client-key": publishableClientKey },
    });
    expect(gone.status).not.toBe(200);
  });
});
