/**
 * The Workflows page: none at first; a new one made, named, enabled and its TypeScript written and saved; its
 * runs listed with their status and output once the events it names fire (the job runner awaited, not slept
 * on), a failed run with its error; a source that does not compile refused on saving; deleted after asking.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import {
  dashboardWithOwner,
  expectHeading,
  recordAdminWrites,
  screenshot,
  uniqueEmail,
  type Dashboard,
  type ProjectOwner,
} from "./dashboard.ts";

let dashboard: Dashboard;
let page: Page;
let owner: ProjectOwner;

beforeAll(async () => ({ dashboard, owner, page } = await dashboardWithOwner()));
afterAll(() => dashboard?.close());
afterEach(() => dashboard.expectNoPageErrors());

const runs = () => page.getByRole("table", { name: "Runs" }).locator("tbody tr");

/** A user created through the SDK (a `user.created` event), and the runs it triggers run to their end. */
async function signUpSomeone() {
  await owner.project.app.createUser({ primaryEmail: uniqueEmail() });
  await dashboard.server.instance.services.jobs.flush();
}

async function replaceSource(source: string) {
  await page.getByRole("textbox", { name: "Workflow source (TypeScript)" }).click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText(source);
}

test("creates, writes and enables a workflow, then shows its runs with their output", async () => {
  await page.goto(`${dashboard.url}/projects/${owner.id}/workflows`);
  await expectHeading(page, "Workflows");
  await expect.poll(() => page.getByText("No workflows yet").count()).toBe(1);
  const writes = recordAdminWrites(page);
  await page.getByRole("button", { name: "New workflow" }).click();
  await expect.poll(() => page.getByLabel("Name", { exact: true }).inputValue()).toBe("New workflow");
  expect(await page.getByRole("switch", { name: "Enabled" }).isChecked()).toBe(false);
  expect(await page.getByRole("checkbox", { name: "user.created" }).isChecked()).toBe(true);

  await page.getByLabel("Name", { exact: true }).fill("Welcome");
  await page.getByRole("switch", { name: "Enabled" }).click();
  await page.getByRole("checkbox", { name: "team.created" }).click();
  await replaceSource(`export default async (event: { data: { id: string } }) => {
  console.log("hello", event.data.id);
};`);
  await page.getByRole("button", { name: "Save" }).click();
  await expect.poll(() => page.getByRole("status").filter({ hasText: "Saved." }).count()).toBe(1);
  const [saved, ...more] = await owner.project.app.listWorkflows();
  expect(more).toEqual([]);
  expect(saved).toMatchObject({ displayName: "Welcome", enabled: true, triggerEventTypes: ["user.created", "team.created"] });
  expect(saved!.source).toContain(`console.log("hello", event.data.id);`);
  expect(writes.take()).toEqual(["POST /internal/workflows", `PATCH /internal/workflows/${saved!.id}`]);

  await signUpSomeone();
  await page.getByRole("region", { name: "Recent runs" }).getByRole("button", { name: "Refresh" }).click();
  await expect.poll(() => runs().count()).toBe(1);
  expect(await runs().first().locator("td").nth(1).textContent()).toBe("user.created");
  expect(await runs().first().locator("td").nth(2).textContent()).toBe("Succeeded");
  await runs().first().getByText("Output").click();
  await expect.poll(() => runs().first().locator("pre").textContent()).toMatch(/^hello [0-9a-f-]{36}\n$/);
  await screenshot(page, "workflows");
});

test("shows a failed run with its error, refuses a source that does not compile, and deletes after asking", async () => {
  const [workflow] = await owner.project.app.listWorkflows();
  await owner.project.app.updateWorkflow(workflow!.id, { source: `export default () => { throw new Error("no luck"); };` });
  await signUpSomeone();
  await page.goto(`${dashboard.url}/projects/${owner.id}/workflows?id=${workflow!.id}`);
  await expectHeading(page, "Workflows");
  await expect.poll(() => runs().count()).toBe(2);
  expect(await runs().first().locator("td").nth(2).textContent()).toBe("Failed");
  expect(await runs().first().locator("summary").textContent()).toBe("Error: no luck");

  // A source that does not compile is refused on saving, in the compiler's words, and the saved one kept.
  await replaceSource("export default function ( {");
  await page.getByRole("button", { name: "Save" }).click();
  await expect.poll(() => page.getByText(/The workflow does not compile: /).count()).toBe(1);
  expect((await owner.project.app.listWorkflows())[0]!.source).toContain("no luck");

  await page.getByRole("button", { name: "Delete" }).click();
  const dialog = page.getByRole("dialog", { name: "Delete this workflow?" });
  await dialog.getByRole("button", { name: "Delete workflow" }).click();
  await expect.poll(() => page.getByText("No workflows yet").count()).toBe(1);
  expect(await owner.project.app.listWorkflows()).toEqual([]);
});
