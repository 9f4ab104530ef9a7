/**
 * The users page: a project's users (made through the SDK) listed, searched
 * by e-mail and id, filtered by anonymity, ordered by last activity, paged,
 * a user created through the dialog, the filtered set exported as CSV, and
 * the query kept in the URL across a reload.
 */
import { readFile } from "node:fs/promises";
import type { ServerUser } from "@latchkey/js";
import { eq } from "drizzle-orm";
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { clientAppOf } from "../../../../packages/js/test/server/fixtures.ts";
import { users } from "../../../../packages/server/src/db/schema/index.ts";
import { PASSWORD, expectHeading, ownerWithProject, screenshot, signInOwner, startDashboard, type Dashboard } from "./dashboard.ts";

let dashboard: Dashboard;
let page: Page;
let owner: Awaited<ReturnType<typeof ownerWithProject>>;
/** In sign-up order; the first is then made the most recently active. */
const made: ServerUser[] = [];
let anonymousId: string;
const tag = `u${Date.now().toString(36)}`;

beforeAll(async () => {
  dashboard = await startDashboard();
  owner = await ownerWithProject(dashboard.url);
  const app = owner.project.app;
  for (const [i, name] of ["Ann Archer", "Ben Brook", "Cat Cole", "Dan Dale"].entries()) {
    const group = i < 2 ? "team" : "solo";
    made.push(
      await app.createUser({
        primaryEmail: `${tag}-${group}-${name.split(" ")[0]!.toLowerCase()}@example.com`,
        primaryEmailAuthEnabled: true,
        primaryEmailVerified: i % 2 === 0,
        displayName: name,
        // Ann alone has a password: hashing one for the others would only slow the test.
        ...(i === 0 ? { password: PASSWORD } : {}),
      }),
    );
  }
  const client = clientAppOf(dashboard.url, owner);
  anonymousId = (await client.getUser({ or: "anonymous" })).id;
  // Ann was active last: written directly, since a sign-in moves last activity only when the last was over a second ago.
  await dashboard.server.instance.services.db
    .update(users)
    .set({ lastActiveAt: new Date(Date.now() + 60_000) })
    .where(eq(users.id, made[0]!.id));
  page = await dashboard.openPage();
  await signInOwner(page, dashboard.url, owner.email);
});

afterAll(async () => {
  await dashboard?.close();
});
afterEach(() => dashboard.expectNoPageErrors());

const usersUrl = (query = "") => `${dashboard.url}/projects/${owner.id}/users${query}`;

/** The ids of the rows shown, once the list shows `count` rows. */
async function rowIds(count: number): Promise<string[]> {
  const rows = page.locator("tbody tr[data-user-id]");
  await expect.poll(() => rows.count(), { timeout: 10_000 }).toBe(count);
  return rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-user-id")!));
}

/** Waits until the rows shown are exactly `ids`, in that order. */
async function expectRows(ids: string[]): Promise<void> {
  const rows = page.locator("tbody tr[data-user-id]");
  await expect.poll(() => rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-user-id"))), { timeout: 10_000 }).toEqual(ids);
}

async function search(text: string): Promise<void> {
  await page.getByLabel("Search users").fill(text);
  await page.getByRole("button", { name: "Search", exact: true }).click();
}

const ids = () => made.map((u) => u.id);

describe("the users page", () => {
  test("lists the project's users, newest first, anonymous users hidden", async () => {
    await page.goto(usersUrl());
    await expectHeading(page, "Users");
    await expectRows([...ids()].reverse());
    await expect.poll(() => page.getByRole("link", { name: "Users", exact: true }).getAttribute("aria-current")).toBe("page");
    const first = page.locator(`tr[data-user-id="${made[0]!.id}"]`);
    await expect.poll(() => first.textContent()).toContain("Ann Archer");
    await expect.poll(() => first.getByText("verified").count()).toBe(1);
    await expect.poll(() => first.getByRole("link").getAttribute("href")).toBe(`/projects/${owner.id}/users/${made[0]!.id}`);
    await screenshot(page, "users");
  });

  test("search finds a user by e-mail and by id; a reload keeps the query", async () => {
    await search(made[2]!.primaryEmail!.toUpperCase());
    await expectRows([made[2]!.id]);
    expect(new URL(page.url()).searchParams.get("q")).toBe(made[2]!.primaryEmail!.toUpperCase());
    await search(made[3]!.id);
    await expectRows([made[3]!.id]);
    await page.reload();
    await expectRows([made[3]!.id]);
    await expect.poll(() => page.getByLabel("Search users").inputValue()).toBe(made[3]!.id);
    await search("zz-nobody-zz");
    await expect.poll(() => page.getByText("No users match.").count()).toBe(1);
  });

  test("the anonymous filter shows anonymous users too, or alone", async () => {
    await page.goto(usersUrl());
    await rowIds(4);
    await page.getByLabel("Anonymous users").selectOption("only");
    await expectRows([anonymousId]);
    await page.getByLabel("Anonymous users").selectOption("include");
    await expectRows([anonymousId, ...[...ids()].reverse()]);
    await page.reload();
    await expectRows([anonymousId, ...[...ids()].reverse()]);
  });

  test("orders by last activity", async () => {
    await page.goto(usersUrl());
    await page.getByLabel("Order").selectOption("last_active:desc");
    await expectRows([made[0]!.id, made[3]!.id, made[2]!.id, made[1]!.id]);
    await page.getByLabel("Order").selectOption("last_active:asc");
    await expectRows([made[1]!.id, made[2]!.id, made[3]!.id, made[0]!.id]);
    expect(new URL(page.url()).searchParams.get("sort")).toBe("last_active");
  });

  test("pages two at a time: Next, Next, Previous, with the cursors in the URL", async () => {
    await page.goto(usersUrl("?size=2&dir=asc"));
    await expectRows(ids().slice(0, 2));
    const previous = page.getByRole("button", { name: "Previous" });
    const next = page.getByRole("button", { name: "Next" });
    expect(await previous.isDisabled()).toBe(true);
    await next.click();
    await expectRows(ids().slice(2, 4));
    await page.reload();
    await expectRows(ids().slice(2, 4));
    await expect.poll(() => next.isDisabled()).toBe(true);
    await previous.click();
    await expectRows(ids().slice(0, 2));
    await expect.poll(() => previous.isDisabled()).toBe(true);
    await page.getByLabel("Per page").selectOption("10");
    await expectRows(ids());
  });

  test("creates a user through the dialog, then finds them", async () => {
    await page.goto(usersUrl());
    await page.getByRole("button", { name: "New user" }).click();
    const dialog = page.getByRole("dialog", { name: "New user" });
    const email = `${tag}-new-eve@example.com`;
    await dialog.getByLabel("E-mail", { exact: true }).fill(email);
    await dialog.getByLabel("Display name").fill("Eve Evans");
    await dialog.getByLabel("E-mail verified").check();
    await dialog.getByRole("button", { name: "Create user" }).click();
    const [id] = await rowIds(1);
    const created = await owner.project.app.getUser(id!);
    expect(created).toMatchObject({ primaryEmail: email, displayName: "Eve Evans", primaryEmailVerified: true, hasPassword: false });
    await search("eve evans");
    await expectRows([id!]);
  });

  test("exports the filtered set as CSV", async () => {
    await page.goto(usersUrl(`?q=${tag}-team&dir=asc`));
    await expectRows(ids().slice(0, 2));
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe("users.csv");
    const lines = (await readFile((await file.path())!, "utf8")).split("\r\n").filter((line) => line !== "");
    expect(lines[0]!.startsWith("id,display_name,primary_email")).toBe(true);
    expect(lines.slice(1).map((line) => line.split(",")[0])).toEqual(ids().slice(0, 2));
  });
});
