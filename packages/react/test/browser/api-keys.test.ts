/**
 * API keys in a real browser: the demo app in Chromium against a real
 * server. One story, in order: Ada creates a key in account settings, copies
 * the value shown once, the app's server (the server SDK) finds Ada by it;
 * she revokes it with a confirmation and the server finds no one. Then a
 * team's keys: hidden from Grace, a member without `$manage_api_keys`, shown
 * once she is granted it, and a key she creates there finds the team. With
 * the project's settings off, neither section shows.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { StackServerApp, type ServerTeam } from "../../../js/src/index.ts";
import { createSdkProject, type SdkProject } from "../../../js/test/server/fixtures.ts";
import { uniqueEmail } from "../../../js/test/server/support.ts";
import { createTestServer, type TestServer } from "../../../server/test/harness.ts";
import { signUpInDemo, startDemoApp, type DemoApp } from "./demo-app.ts";

const TEAM = "Difference Engines";

let server: TestServer;
let project: SdkProject;
let demo: DemoApp;
let serverApp: StackServerApp;
let ada: Page;
let grace: Page;
let team: ServerTeam;
/** The whole key, as read from the page. */
let adaKey: string;

beforeAll(async () => {
  server = await createTestServer();
  const apiUrl = await server.listen();
  project = await createSdkProject(apiUrl, { allowUserApiKeys: true, allowTeamApiKeys: true });
  serverApp = new StackServerApp({ baseUrl: apiUrl, projectId: project.id, secretServerKey: project.secretServerKey });
  demo = await startDemoApp({
    VITE_LATCHKEY_API_URL: apiUrl,
    VITE_LATCHKEY_PROJECT_ID: project.id,
    VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey,
  });
  [ada, grace] = await Promise.all([demo.openPage(), demo.openPage()]);
  await ada.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: demo.url });
  // The first visit makes Vite pre-bundle the app's dependencies; later visits are fast.
  await ada.goto(`${demo.url}/`);
  await ada.getByRole("link", { name: "Sign in" }).waitFor();
});

afterAll(async () => {
  await demo?.close();
  await server?.close();
});

/** Signs a new user up in the demo app; answers their id. */
async function signUp(page: Page, email: string): Promise<string> {
  await signUpInDemo(page, demo, email);
  const users = await serverApp.listUsers({ query: email });
  return users.find((user) => user.primaryEmail === email)!.id;
}

const part = (page: Page, title: string) => page.getByRole("region", { name: title, exact: true });

/** Creates a key in `scope` (a section or subsection), answering the whole value the page shows once. */
async function createKey(page: Page, scope: ReturnType<typeof part>, description: string, expiry: string): Promise<string> {
  await scope.getByLabel("Key description", { exact: true }).fill(description);
  await scope.getByLabel("Expires", { exact: true }).selectOption({ label: expiry });
  await scope.getByRole("button", { name: "Create API key", exact: true }).click();
  const shown = scope.getByRole("group", { name: "New API key" });
  await shown.getByText("shown only this once").waitFor();
  return (await shown.getByLabel("API key value").textContent())!;
}

describe("API keys in account settings", () => {
  let adaId: string;

  test("Ada creates a key, sees it whole once and copies it", async () => {
    adaId = await signUp(ada, uniqueEmail("ada"));
    await ada.goto(`${demo.url}/handler/account-settings`);
    const section = part(ada, "API keys");
    await section.getByText("No API keys yet.").waitFor();
    adaKey = await createKey(ada, section, "Analysis script", "In 30 days");
    expect(adaKey).toMatch(/^sk_[0-9a-z]+user1574ck4u7h[0-9a-f]{8}$/);

    await section.getByRole("button", { name: "Copy key", exact: true }).click();
    await section.getByRole("button", { name: "Copied", exact: true }).waitFor();
    expect(await ada.evaluate(() => navigator.clipboard.readText())).toBe(adaKey);

    await section.getByRole("button", { name: "Done", exact: true }).click();
    expect(await section.getByRole("group", { name: "New API key" }).count()).toBe(0);
    const item = section.getByRole("listitem").filter({ hasText: "Analysis script" });
    await item.getByText(adaKey.slice(-4), { exact: true }).waitFor();
    await item.getByText(/expires .* never used/).waitFor();
    // The whole key is nowhere on the page any more.
    expect(await ada.getByText(adaKey).count()).toBe(0);
  });

  test("the app's server finds Ada by the copied key", async () => {
    expect((await serverApp.getUser({ apiKey: adaKey }))?.id).toBe(adaId);
  });

  test("Ada revokes the key after confirming; the server then finds no one", async () => {
    const item = part(ada, "API keys").getByRole("listitem").filter({ hasText: "Analysis script" });
    await item.getByRole("button", { name: "Revoke Analysis script" }).click();
    // Nothing happens before the confirmation.
    expect((await serverApp.getUser({ apiKey: adaKey }))?.id).toBe(adaId);
    await item.getByRole("button", { name: "Revoke key", exact: true }).click();
    await item.getByText("Revoked", { exact: true }).waitFor();
    expect(await item.getByRole("button", { name: /Revoke/ }).count()).toBe(0);
    expect(await serverApp.getUser({ apiKey: adaKey })).toBeNull();
  });
});

describe("a team's API keys", () => {
  let graceId: string;

  test("Grace, a member without $manage_api_keys, sees no API keys in the team's panel", async () => {
    graceId = await signUp(grace, uniqueEmail("grace"));
    team = await serverApp.createTeam({ displayName: TEAM });
    await team.addUser(graceId);
    await grace.goto(`${demo.url}/handler/account-settings`);
    await part(grace, "Teams")
      .getByRole("button", { name: `Manage ${TEAM}`, pressed: true })
      .waitFor();
    const panel = grace.getByRole("region", { name: `Team ${TEAM}` });
    await part(grace, "Leave team").waitFor();
    expect(await panel.getByRole("region", { name: "API keys", exact: true }).count()).toBe(0);
  });

  test("granted $manage_api_keys, Grace sees them and creates a key the server finds the team by", async () => {
    const user = await serverApp.getUser(graceId);
    await user!.grantPermission(team, "$manage_api_keys");
    await grace.reload();
    const keys = grace.getByRole("region", { name: `Team ${TEAM}` }).getByRole("region", { name: "API keys", exact: true });
    await keys.getByText("No API keys yet.").waitFor();
    const value = await createKey(grace, keys, "Build server", "Never");
    expect(value).toMatch(/team1574ck4u7h[0-9a-f]{8}$/);
    await keys.getByRole("listitem").filter({ hasText: "Build server" }).getByText("never expires", { exact: false }).waitFor();
    expect((await serverApp.getTeam({ apiKey: value }))?.id).toBe(team.id);
    // A team key is not a user's.
    expect(await serverApp.getUser({ apiKey: value })).toBeNull();
  });
});

describe("the project's settings", () => {
  test("with user and team keys turned off, neither section shows, even to a member holding $manage_api_keys", async () => {
    await project.project.update({ config: { allowUserApiKeys: false, allowTeamApiKeys: false } });
    await grace.reload();
    await part(grace, "Leave team").waitFor();
    await part(grace, "Active sessions").waitFor();
    expect(await grace.getByRole("region", { name: "API keys", exact: true }).count()).toBe(0);
  });
});
