/**
 * Teams, team settings and permission definitions, as an owner uses them:
 * create a team, add an existing user and grant and revoke a team
 * permission (checked through the SDK), invite by e-mail (the mail arrives,
 * the invitation is pending; with no trusted domain the owner is asked
 * where the app runs, and the link leads there), save team settings (read back through the
 * SDK), and define a team permission that contains another.
 */
import { StackServerApp, type ServerUser } from "@latchkey/js";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { dashboardDist } from "../../../../scripts/lib/dashboard-build.mjs";
import { CALLBACK_URL, createMailingTestServer, linkIn, type MailingServer } from "../../../../packages/server/test/mail-fixtures.ts";
import { expectHeading, ownerWithProject, screenshot, signInOwner, startDashboard, uniqueEmail, type Dashboard } from "./dashboard.ts";

let mailing: MailingServer;
let dashboard: Dashboard;
let page: Page;
let made: Awaited<ReturnType<typeof ownerWithProject>>;
let member: ServerUser;
let teamId = "";
const TEAM = "Reporting crew";
/** Server work (rendering a mail, a write) may take longer than a poll's default second on a busy machine. */
const WAIT = { timeout: 10_000 };

/** A server app of its own for each check, so no cached read answers for the server. */
function freshServer(): StackServerApp {
  return new StackServerApp({ baseUrl: dashboard.url, projectId: made.id, secretServerKey: made.secretServerKey });
}

function at(path: string): string {
  return `${dashboard.url}/projects/${made.id}/${path}`;
}

beforeAll(async () => {
  mailing = await createMailingTestServer({ dashboardDir: dashboardDist });
  dashboard = await startDashboard({ server: mailing.server });
  made = await ownerWithProject(dashboard.url);
  member = await made.project.app.createUser({ primaryEmail: uniqueEmail("member"), displayName: "Mira Member" });
  await made.project.app.createTeamPermissionDefinition({ id: "reports:read", description: "Reads the team's reports" });
  page = await dashboard.openPage();
  await signInOwner(page, dashboard.url, made.email);
});

afterAll(async () => {
  await dashboard?.close();
  await mailing?.close();
});
afterEach(() => dashboard.expectNoPageErrors());

describe("teams", () => {
  test("creates a team in the UI and opens it", async () => {
    await page.goto(at("teams"));
    await expectHeading(page, "Teams");
    await expect.poll(() => page.getByText("This project has no teams yet.").count(), WAIT).toBe(1);
    await page.getByRole("button", { name: "New team" }).click();
    await page.getByLabel("Team name").fill(TEAM);
    await page.getByRole("button", { name: "Create team" }).click();
    await expectHeading(page, TEAM);
    teamId = page.url().split("/teams/")[1]!;
    expect((await freshServer().getTeam(teamId))?.displayName).toBe(TEAM);
  });

  test("adds an existing user, grants a team permission and revokes it", async () => {
    await page.getByRole("button", { name: "Add member" }).click();
    await page.getByLabel("User", { exact: true }).fill(member.primaryEmail!);
    await page.getByRole("list", { name: "Matching users" }).getByRole("button", { name: "Choose" }).click();
    await page.getByRole("button", { name: "Add to team" }).click();
    const row = page.getByRole("listitem", { name: "Mira Member" });
    await row.getByRole("button", { name: "Permissions" }).click();
    const chips = row.getByLabel("Permissions", { exact: true });

    await row.getByRole("switch", { name: /^reports:read/ }).check();
    await expect.poll(() => chips.getByText("reports:read").count(), WAIT).toBe(1);
    const team = { id: teamId };
    expect(await (await freshServer().getUser(member.id))!.hasPermission(team, "reports:read")).toBe(true);

    await row.getByRole("switch", { name: /^reports:read/ }).uncheck();
    await expect.poll(() => chips.getByText("reports:read").count(), WAIT).toBe(0);
    expect(await (await freshServer().getUser(member.id))!.hasPermission(team, "reports:read")).toBe(false);
  });

  test("invites by e-mail: the mail arrives and the invitation is pending until revoked", async () => {
    const email = uniqueEmail("invitee");
    await page.getByLabel("E-mail address").fill(email);
    await page.getByLabel("Invitation page").fill(CALLBACK_URL);
    await page.getByRole("button", { name: "Send invitation" }).click();
    // The first mail of a server renders its templates first: seconds on a busy machine.
    await expect.poll(() => page.getByText(`Invitation sent to ${email}.`).count(), { timeout: 60_000 }).toBe(1);
    const pending = page.getByRole("table", { name: "Pending invitations" });
    await expect.poll(() => pending.getByText(email).count(), WAIT).toBe(1);
    expect(linkIn(await mailing.mailTo(email)).code).toBeTruthy();
    await screenshot(page, "team-detail");

    await pending.getByRole("button", { name: `Revoke the invitation to ${email}` }).click();
    await expect.poll(() => page.getByText("No pending invitations.").count(), WAIT).toBe(1);
    expect(await (await freshServer().getTeam(teamId))!.listInvitations()).toEqual([]);
  });

  test("with no trusted domain, an invitation left without a page asks where the app runs and links there, never to the dashboard", async () => {
    const email = uniqueEmail("invitee-no-domain");
    const appUrl = "http://localhost:4321";
    await page.reload();
    await expectHeading(page, TEAM);
    expect(await page.getByLabel("Invitation page").inputValue()).toBe("");
    await page.getByLabel("E-mail address").fill(email);
    await page.getByRole("button", { name: "Send invitation" }).click();
    const dialog = page.getByRole("dialog", { name: "Where does your app run?" });
    await dialog.getByLabel("App URL").fill(appUrl);
    await dialog.getByRole("button", { name: "Continue" }).click();
    await expect.poll(() => page.getByText(`Invitation sent to ${email}.`).count(), { timeout: 60_000 }).toBe(1);
    const { link } = linkIn(await mailing.mailTo(email), `${appUrl}/handler/team-invitation`);
    expect(link.origin).not.toBe(new URL(dashboard.url).origin);
    expect(await page.getByLabel("Invitation page").inputValue()).toBe(`${appUrl}/handler/team-invitation`);
    const pending = page.getByRole("table", { name: "Pending invitations" });
    await pending.getByRole("button", { name: `Revoke the invitation to ${email}` }).click();
    await expect.poll(() => page.getByText("No pending invitations.").count(), WAIT).toBe(1);
  });

  test("renames the team", async () => {
    await page.getByLabel("Team name").fill("Reports crew");
    await page.getByRole("button", { name: "Save profile" }).click();
    await expect.poll(() => page.getByText("Profile saved.").count(), WAIT).toBe(1);
    await expectHeading(page, "Reports crew");
    expect((await freshServer().getTeam(teamId))!.displayName).toBe("Reports crew");
  });

  test("metadata refuses invalid JSON and empty text, and saves any JSON value, null included", async () => {
    const editor = page.getByLabel("Server metadata", { exact: true });
    const save = page.getByRole("button", { name: "Save server metadata" });
    expect(await editor.inputValue()).toBe("null");
    await editor.fill("{ not json");
    await expect.poll(() => page.getByText("Invalid JSON: Invalid symbol at line 1, column 3.").count(), WAIT).toBe(1);
    expect(await save.isDisabled()).toBe(true);
    await editor.fill("");
    await expect.poll(() => page.getByText("Invalid JSON: Value expected at line 1, column 1.").count(), WAIT).toBe(1);
    expect(await save.isDisabled()).toBe(true);
    // The page's read of the team after the save is held back, as on a slow network, until the owner has
    // typed the old value again: that edit is a change to save, not the page's old value.
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const teamRead = `**/api/v1/teams/${teamId}*`;
    const passing: Promise<void>[] = [];
    await page.route(teamRead, (route) => {
      const passed = (async () => {
        if (route.request().method() === "GET") await held;
        await route.continue();
      })();
      passing.push(passed);
      return passed;
    });
    await editor.fill('{"plan": "pro"}');
    await save.click();
    await expect.poll(() => page.getByText("Server metadata saved.").count(), WAIT).toBe(1);
    expect((await freshServer().getTeam(teamId))!.serverMetadata).toEqual({ plan: "pro" });
    await editor.fill("null");
    expect(await save.isDisabled()).toBe(false);
    release();
    // Removed only once the held reads went on: a route removed under a waiting handler is passed on for it.
    await Promise.all(passing);
    await page.unroute(teamRead);
    await save.click();
    await expect.poll(async () => (await freshServer().getTeam(teamId))!.serverMetadata, WAIT).toBeNull();
  });

  test("the list searches by name, kept in the URL", async () => {
    await page.goto(at("teams?q=report"));
    await expect.poll(() => page.getByRole("link", { name: "Reports crew" }).count(), WAIT).toBe(1);
    await screenshot(page, "teams");
    await page.getByRole("searchbox", { name: "Search teams" }).fill("nothing-like-it");
    await expect.poll(() => page.getByText("No team matches “nothing-like-it”.").count(), WAIT).toBe(1);
    expect(new URL(page.url()).searchParams.get("q")).toBe("nothing-like-it");
  });
});

describe("team settings", () => {
  test("toggles and default permissions are saved", async () => {
    await page.goto(at("team-settings"));
    await expectHeading(page, "Team settings");
    // Each switch moves once the server has saved it.
    await page.getByRole("switch", { name: /^Users may create teams/ }).click();
    await expect.poll(() => page.getByRole("switch", { name: /^Users may create teams/ }).isChecked(), WAIT).toBe(true);
    expect((await made.project.app.getProject()).config.clientTeamCreationEnabled).toBe(true);
    await page.getByRole("switch", { name: /^A personal team for each new user/ }).click();
    await expect.poll(async () => (await made.project.app.getProject()).config.createTeamOnSignUp, WAIT).toBe(true);

    const creator = page.getByRole("region", { name: "Creator permissions" });
    await creator.getByRole("switch", { name: /^reports:read/ }).check();
    await creator.getByRole("button", { name: "Save creator permissions" }).click();
    await expect.poll(() => creator.getByText("Saved.").count(), WAIT).toBe(1);
    expect((await made.project.app.getProject()).config.teamCreatorDefaultPermissions.map((p) => p.id)).toContain("reports:read");
    expect((await made.project.app.getProject()).config.clientTeamCreationEnabled).toBe(true);
    await expect.poll(() => creator.getByRole("button", { name: "Save creator permissions" }).isDisabled(), WAIT).toBe(true);
    expect(await creator.getByRole("switch", { name: /^reports:read/ }).isChecked()).toBe(true);
    // Each setting is the config key the page wrote to the environment's override.
    expect(await made.project.getConfigOverride("environment")).toMatchObject({
      "teams.allowClientTeamCreation": true,
      "teams.createPersonalTeamOnSignUp": true,
      "rbac.defaultPermissions.teamCreator": { team_admin: true, "reports:read": true },
    });
    await screenshot(page, "team-settings");
  });
});

describe("permissions", () => {
  test("refuses an invalid id, creates one containing another, shows it nested, and refuses a cycle", async () => {
    await page.goto(at("permissions"));
    await expectHeading(page, "Permissions");
    await expect.poll(() => page.getByText("System").count(), WAIT).toBeGreaterThan(0);
    await page.getByRole("button", { name: "New team permission" }).click();
    const dialog = page.getByRole("dialog", { name: "New team permission" });
    await dialog.getByLabel("Permission id").fill("Reports Admin");
    await dialog.getByRole("button", { name: "Create permission" }).click();
    await expect
      .poll(() => dialog.getByRole("alert").textContent(), WAIT)
      .toContain('may contain only lowercase letters, numbers, ":" and "_"');

    await dialog.getByLabel("Permission id").fill("reports:admin");
    await dialog.getByLabel("Description").fill("Runs the team's reports");
    await dialog.getByRole("switch", { name: /^reports:read/ }).check();
    await dialog.getByRole("button", { name: "Create permission" }).click();
    // The disclosure is a button of its own (Edit and Delete sit beside it), opened here from the keyboard.
    const branch = page.getByRole("button", { name: /^reports:admin.*contains 1$/ });
    const nested = page.getByRole("list", { name: "Contained in reports:admin" });
    expect(await branch.getAttribute("aria-expanded")).toBe("false");
    expect(await nested.isHidden()).toBe(true);
    expect(await branch.getByRole("button").count()).toBe(0);
    await branch.focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => branch.getAttribute("aria-expanded"), WAIT).toBe("true");
    expect(await branch.getAttribute("aria-controls")).toBe(await nested.getAttribute("id"));
    await expect.poll(() => nested.getByText("reports:read", { exact: true }).count(), WAIT).toBe(1);
    const defs = await made.project.app.listTeamPermissionDefinitions();
    expect(defs.find((d) => d.id === "reports:admin")?.containedPermissionIds).toEqual(["reports:read"]);
    await screenshot(page, "permissions");

    await page.getByRole("button", { name: "Edit reports:read" }).click();
    const edit = page.getByRole("dialog", { name: "Edit reports:read" });
    await edit.getByRole("switch", { name: /^reports:admin/ }).check();
    await edit.getByRole("button", { name: "Save permission" }).click();
    await expect.poll(() => edit.getByRole("alert").textContent(), WAIT).toContain("would make a cycle");
  });

  test("deleting a permission asks first", async () => {
    await page.goto(at("permissions"));
    await page.getByRole("button", { name: "Delete reports:admin" }).click();
    const ask = page.getByRole("dialog", { name: "Delete this permission?" });
    await ask.getByRole("button", { name: "Cancel" }).click();
    expect((await made.project.app.listTeamPermissionDefinitions()).map((d) => d.id)).toContain("reports:admin");
    await page.getByRole("button", { name: "Delete reports:admin" }).click();
    await ask.getByRole("button", { name: "Delete permission" }).click();
    await expect
      .poll(async () => (await made.project.app.listTeamPermissionDefinitions()).map((d) => d.id), WAIT)
      .not.toContain("reports:admin");
    await expect.poll(() => page.getByRole("button", { name: "Delete reports:admin" }).count(), WAIT).toBe(0);
  });

  test("the scope tabs move with the arrow keys, and the chosen one is in the URL", async () => {
    await page.goto(at("permissions"));
    const team = page.getByRole("tab", { name: "Team permissions" });
    const project = page.getByRole("tab", { name: "Project permissions" });
    expect(await team.getAttribute("aria-selected")).toBe("true");
    await team.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(() => project.getAttribute("aria-selected"), WAIT).toBe("true");
    expect(await project.evaluate((el) => el === document.activeElement)).toBe(true);
    expect(new URL(page.url()).searchParams.get("scope")).toBe("project");
    const panel = page.getByRole("tabpanel");
    expect(await panel.getAttribute("id")).toBe(await project.getAttribute("aria-controls"));
    expect(await panel.getAttribute("aria-labelledby")).toBe(await project.getAttribute("id"));
    await expect.poll(() => panel.getByRole("heading", { name: "Project permissions" }).count(), WAIT).toBe(1);
    await page.keyboard.press("Home");
    await expect.poll(() => team.getAttribute("aria-selected"), WAIT).toBe("true");
    expect(new URL(page.url()).searchParams.get("scope")).toBeNull();
  });
});
