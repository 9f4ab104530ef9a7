/**
 * Teams in a real browser: the demo app (apps/demo) in Chromium against a
 * real Latchkey server whose mail goes to a real SMTP peer. One story, in
 * order, with two people in two browser contexts (their own cookies): Ada
 * creates a team and invites Grace by e-mail; Grace opens the mailed link,
 * signs up on the way and joins; the switcher shows the team for both; Grace,
 * joining without `$invite_members`, sees no invite control. Screenshots of
 * the team pages go to test-artifacts/ (copies of a run are kept in
 * docs/screenshots/).
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSdkProject, type SdkProject } from "../../../js/test/server/fixtures.ts";
import { PASSWORD, uniqueEmail } from "../../../js/test/server/support.ts";
import { createMailingTestServer, linkIn, type MailingServer } from "../../../server/test/mail-fixtures.ts";
import { repoRoot, startDemoApp, type DemoApp } from "./demo-app.ts";

const screenshots = join(repoRoot, "test-artifacts");
const TEAM = "Analytical Engines";

let mailing: MailingServer;
let project: SdkProject;
let demo: DemoApp;
/** Ada creates the team; Grace is invited. */
let ada: Page;
let grace: Page;

const adaEmail = uniqueEmail("ada");
const graceEmail = uniqueEmail("grace");
let invitationLink: string;

beforeAll(async () => {
  mailing = await createMailingTestServer();
  const apiUrl = await mailing.server.listen();
  project = await createSdkProject(apiUrl, { clientTeamCreationEnabled: true });
  demo = await startDemoApp({
    VITE_LATCHKEY_API_URL: apiUrl,
    VITE_LATCHKEY_PROJECT_ID: project.id,
    VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey,
  });
  [ada, grace] = await Promise.all([openPage(), openPage()]);
  mkdirSync(screenshots, { recursive: true });
  await ada.goto(`${demo.url}/`);
  await ada.getByRole("link", { name: "Sign in" }).waitFor();
});

afterAll(async () => {
  await demo?.close();
  await mailing?.close();
});

function openPage(): Promise<Page> {
  return demo.openPage();
}

async function signUp(page: Page, email: string): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Repeat password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
}

const switcher = (page: Page) => page.getByRole("button", { name: /^Select(ed)? (a )?team/ });
/** A section (or a team's part of it) by its heading. */
const part = (page: Page, title: string) => page.getByRole("region", { name: title, exact: true });
const teamsSection = (page: Page) => part(page, "Teams");

describe("teams in the demo app", () => {
  test("Ada signs up and creates a team from the switcher in the header; it becomes her selected team", async () => {
    await ada.goto(`${demo.url}/handler/sign-up`);
    await signUp(ada, adaEmail);
    await ada.waitForURL(`${demo.url}/`);
    await expect.poll(() => switcher(ada).getAttribute("aria-label")).toBe("Select a team (none selected)");

    await switcher(ada).click();
    const menu = ada.getByRole("menu", { name: "Teams" });
    await menu.getByText("You are not in a team yet.").waitFor();
    await menu.getByRole("menuitem", { name: "Create a team…" }).click();
    const dialog = ada.getByRole("dialog", { name: "Create a team" });
    await dialog.getByLabel("Team name", { exact: true }).fill(TEAM);
    await dialog.getByRole("button", { name: "Create team", exact: true }).click();

    await expect.poll(() => switcher(ada).getAttribute("aria-label")).toBe(`Selected team: ${TEAM}`);
    await ada.getByText(`Selected team: ${TEAM}`, { exact: true }).waitFor();
    await switcher(ada).click();
    await ada.getByRole("menuitemradio", { name: TEAM, checked: true }).waitFor();
    await ada.screenshot({ path: join(screenshots, "teams-switcher-open.png") });
    await ada.keyboard.press("Escape");
    expect(await ada.getByRole("menu", { name: "Teams" }).count()).toBe(0);
  });

  test("in account settings, Ada (the team's creator) sees every control and invites Grace's address", async () => {
    await ada.goto(`${demo.url}/handler/account-settings`);
    const teams = teamsSection(ada);
    await teams.getByRole("button", { name: `Manage ${TEAM}`, pressed: true }).waitFor();
    for (const title of ["Members", "Invite a member", "Pending invitations", "Your profile in this team", "Team settings", "Leave team"]) {
      await part(ada, title).waitFor();
    }
    await part(ada, "Members").getByRole("listitem").filter({ hasText: "You" }).waitFor();

    await ada.getByLabel("E-mail address to invite", { exact: true }).fill(graceEmail);
    await ada.getByRole("button", { name: "Send invitation", exact: true }).click();
    await part(ada, "Invite a member")
      .getByRole("status")
      .filter({ hasText: `We sent an invitation to ${graceEmail}.` })
      .waitFor();
    await part(ada, "Pending invitations").getByRole("listitem").filter({ hasText: graceEmail }).waitFor();
    await teams.screenshot({ path: join(screenshots, "teams-account-settings.png") });

    const mail = await mailing.mailTo(graceEmail, new RegExp(`You are invited to join ${TEAM}`));
    invitationLink = linkIn(mail, `${demo.url}/handler/team-invitation`).link.toString();
  });

  test("a new member gets no permissions in this project (team_member_default_permissions emptied by an admin)", async () => {
    await project.project.update({ config: { teamMemberDefaultPermissions: [] } });
  });

  test("Grace opens the mailed link signed out, is asked to sign in, signs up instead, comes back and joins", async () => {
    await grace.goto(invitationLink);
    await grace.getByText("Sign in to accept the invitation, or create an account first.").waitFor();
    await grace.screenshot({ path: join(screenshots, "teams-invitation-signed-out.png") });

    await grace.getByRole("link", { name: "Sign in", exact: true }).click();
    await grace.waitForURL((url) => url.pathname === "/handler/sign-in");
    const returnTo = new URL(grace.url()).searchParams.get("after_auth_return_to");
    expect(returnTo).toBe(new URL(invitationLink).pathname + new URL(invitationLink).search);

    await grace.getByRole("link", { name: "Sign up", exact: true }).click();
    await grace.waitForURL((url) => url.pathname === "/handler/sign-up" && url.searchParams.get("after_auth_return_to") === returnTo);
    await signUp(grace, graceEmail);

    await grace.waitForURL(invitationLink);
    const join_ = grace.getByRole("button", { name: `Join ${TEAM}`, exact: true });
    await join_.waitFor();
    await grace.getByRole("heading", { name: `Join ${TEAM}` }).waitFor();
    await grace.screenshot({ path: join(screenshots, "teams-invitation.png") });
    await join_.click();
    await grace
      .getByRole("status")
      .filter({ hasText: `You joined ${TEAM}.` })
      .waitFor();
  });

  test("a signed-out visitor with an unknown code is told so before signing in", async () => {
    const stranger = await openPage();
    await stranger.goto(`${demo.url}/handler/team-invitation?code=${"a".repeat(45)}`);
    await stranger.getByRole("alert").filter({ hasText: "The verification code does not exist" }).waitFor();
    expect(await stranger.getByRole("link", { name: "Sign in", exact: true }).count()).toBe(0);
  });

  test("the used link now answers with its error", async () => {
    await grace.reload();
    await grace.getByRole("alert").filter({ hasText: "already been used" }).waitFor();
    expect(await grace.getByRole("button", { name: `Join ${TEAM}` }).count()).toBe(0);
  });

  test("the switcher shows the team for Grace, who selects it, and still for Ada", async () => {
    await grace.goto(`${demo.url}/`);
    await switcher(grace).click();
    await grace.getByRole("menuitemradio", { name: TEAM, checked: false }).click();
    await expect.poll(() => switcher(grace).getAttribute("aria-label")).toBe(`Selected team: ${TEAM}`);
    await grace.getByText(`Selected team: ${TEAM}`, { exact: true }).waitFor();

    await ada.goto(`${demo.url}/`);
    await expect.poll(() => switcher(ada).getAttribute("aria-label")).toBe(`Selected team: ${TEAM}`);
  });

  test("Grace, without $invite_members, sees no invite control, no member list and no team settings; she edits her own profile", async () => {
    await grace.goto(`${demo.url}/handler/account-settings`);
    await teamsSection(grace)
      .getByRole("button", { name: `Manage ${TEAM}`, pressed: true })
      .waitFor();
    await part(grace, "Your profile in this team").waitFor();
    await part(grace, "Leave team").waitFor();
    for (const title of ["Members", "Invite a member", "Pending invitations", "Team settings"]) {
      expect(await part(grace, title).count(), title).toBe(0);
    }
    expect(await grace.getByLabel("E-mail address to invite").count()).toBe(0);
    expect(await grace.getByRole("button", { name: "Send invitation" }).count()).toBe(0);

    const profile = part(grace, "Your profile in this team");
    await profile.getByLabel("Display name in this team", { exact: true }).fill("Grace H.");
    await profile.getByRole("button", { name: "Save profile", exact: true }).click();
    await profile.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await teamsSection(grace).screenshot({ path: join(screenshots, "teams-account-settings-member.png") });
  });

  test("Ada sees Grace among the members by her team name, and the invitation is no longer pending", async () => {
    await ada.goto(`${demo.url}/handler/account-settings`);
    const members = part(ada, "Members");
    await members.getByRole("listitem").filter({ hasText: "Grace H." }).waitFor();
    await members.getByRole("button", { name: "Remove Grace H. from the team" }).waitFor();
    await part(ada, "Pending invitations").getByText("No invitation is waiting for an answer.").waitFor();
  });

  test("Ada invites another address and revokes the invitation", async () => {
    const charles = uniqueEmail("charles");
    await ada.getByLabel("E-mail address to invite", { exact: true }).fill(charles);
    await ada.getByRole("button", { name: "Send invitation", exact: true }).click();
    const pending = part(ada, "Pending invitations");
    await pending.getByRole("button", { name: `Revoke the invitation to ${charles}` }).click();
    await pending.getByText("No invitation is waiting for an answer.").waitFor();
    await ada.reload();
    await part(ada, "Pending invitations").getByText("No invitation is waiting for an answer.").waitFor();
  });

  test("Ada renames the team; Grace leaves it, and her switcher no longer lists it", async () => {
    const settings = part(ada, "Team settings");
    await settings.getByLabel("Team name", { exact: true }).fill(`${TEAM} Ltd`);
    await settings.getByRole("button", { name: "Rename team", exact: true }).click();
    await teamsSection(ada)
      .getByRole("button", { name: `Manage ${TEAM} Ltd` })
      .waitFor();

    await grace.goto(`${demo.url}/handler/account-settings`);
    await part(grace, "Leave team").getByRole("button", { name: "Leave team…" }).click();
    await part(grace, "Leave team")
      .getByRole("button", { name: `Leave ${TEAM} Ltd` })
      .click();
    await teamsSection(grace).getByText("You are not in a team yet.").waitFor();

    await grace.goto(`${demo.url}/`);
    await switcher(grace).click();
    await grace.getByRole("menu", { name: "Teams" }).getByText("You are not in a team yet.").waitFor();
  });
});
