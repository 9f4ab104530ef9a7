/**
 * The TSX editors ask before unsaved edits are lost: another page of the
 * dashboard waits for "Leave without saving?" (Stay keeps the edit, Leave
 * goes), a reload gets the browser's own question, and once saved nothing asks.
 */
import type { Dialog, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { expectHeading, ownerWithProject, screenshot, signInOwner, startDashboard, type Dashboard } from "./dashboard.ts";

let dashboard: Dashboard;
let page: Page;
let made: Awaited<ReturnType<typeof ownerWithProject>>;
/** The browser's own questions (beforeunload), each accepted. */
const browserDialogs: string[] = [];

beforeAll(async () => {
  dashboard = await startDashboard();
  made = await ownerWithProject(dashboard.url);
  // Templates are edited only with the project's own SMTP server; nothing is sent here, so it is never reached.
  await made.project.update({
    config: {
      emailConfig: {
        type: "standard",
        host: "smtp.example.com",
        port: 587,
        username: "",
        password: "",
        senderName: "Shop",
        senderEmail: "shop@example.com",
      },
    },
  });
  page = await dashboard.openPage();
  page.on("dialog", (dialog: Dialog) => {
    browserDialogs.push(dialog.type());
    void dialog.accept();
  });
  await signInOwner(page, dashboard.url, made.email);
});
afterAll(async () => {
  await dashboard?.close();
});
afterEach(() => dashboard.expectNoPageErrors());

const projectUrl = (path: string) => `${dashboard.url}/projects/${made.id}/${path}`;
const editor = () => page.getByRole("textbox", { name: "Template source" });
const leaveDialog = () => page.getByRole("dialog", { name: "Leave without saving?" });
const sidebarLink = (name: string) => page.getByRole("link", { name, exact: true });

/**
 * Waits until the editor's preview has rendered and its frame has loaded. The preview is a sandboxed iframe, which
 * Chromium runs in a process of its own: when that frame is loading a document just as the page is left by the
 * browser itself (page.goto, page.reload) with unsaved edits, the navigation waiting on the beforeunload question is
 * aborted (net::ERR_ABORTED) and the question withdrawn before it can be answered ("No dialog is showing"). Leaving
 * only after the preview has loaded keeps that question the one thing between the page and the next.
 */
async function previewLoaded() {
  // A render by a renderer that has just started can take tens of seconds on a busy machine.
  await expect.poll(() => page.locator('[aria-busy="true"]').count(), { timeout: 60_000 }).toBe(0);
  await page.frameLocator('iframe[title="E-mail preview"]').locator("body > *").first().waitFor({ timeout: 60_000 });
}

/** Appends a comment to the template's source: an edit that keeps it rendering as before. */
async function appendComment(text: string) {
  await editor().click();
  await page.keyboard.press("ControlOrMeta+End");
  await page.keyboard.insertText(`\n// ${text}\n`);
  await expect.poll(() => page.getByRole("button", { name: "Save", exact: true }).isEnabled()).toBe(true);
}

test("leaving a template with unsaved edits asks first: Stay keeps the edit, Leave goes", async () => {
  await page.goto(projectUrl("email-templates"));
  await expectHeading(page, "Templates");
  await appendComment("an unsaved edit");
  await sidebarLink("Sent").click();
  await expect.poll(() => leaveDialog().count()).toBe(1);
  await screenshot(page, "unsaved-edits-dialog");
  await leaveDialog().getByRole("button", { name: "Stay" }).click();
  await expect.poll(() => leaveDialog().count()).toBe(0);
  await expectHeading(page, "Templates");
  expect(await editor().innerText()).toContain("// an unsaved edit");

  await sidebarLink("Sent").click();
  await leaveDialog().getByRole("button", { name: "Leave" }).click();
  await expectHeading(page, "Sent e-mail");
  expect(await leaveDialog().count()).toBe(0);
});

test("a reload with unsaved edits gets the browser's question; after saving, nothing asks", async () => {
  await page.goto(projectUrl("email-templates"));
  await expectHeading(page, "Templates");
  await appendComment("edited before a reload");
  await previewLoaded();
  browserDialogs.length = 0;
  await page.reload();
  expect(browserDialogs).toEqual(["beforeunload"]);
  await expectHeading(page, "Templates");

  await appendComment("a saved edit");
  await page.getByRole("button", { name: "Save", exact: true }).click();
  await expect.poll(() => page.getByText("Template saved.").count(), { timeout: 15_000 }).toBe(1);
  browserDialogs.length = 0;
  // Reloaded on the saved template's own page: its guard is there, and asks nothing.
  await page.reload();
  expect(browserDialogs).toEqual([]);
  await expectHeading(page, "Templates");
  await sidebarLink("Sent").click();
  await expectHeading(page, "Sent e-mail");
  expect(await leaveDialog().count()).toBe(0);
});

test("a theme with unsaved edits asks too; a draft deleted with unsaved edits is left without asking", async () => {
  await page.goto(projectUrl("email-templates?tab=themes"));
  await expectHeading(page, "Templates");
  await page.getByLabel("Theme name").fill("Renamed, not saved");
  await page.getByRole("link", { name: "Templates", exact: true }).first().click();
  await expect.poll(() => leaveDialog().count()).toBe(1);
  await leaveDialog().getByRole("button", { name: "Stay" }).click();
  expect(await page.getByLabel("Theme name").inputValue()).toBe("Renamed, not saved");

  const { id } = await made.project.app.createEmailDraft({ displayName: "Short-lived" });
  await previewLoaded();
  await page.goto(projectUrl(`email-drafts?id=${id}`));
  await expectHeading(page, "Drafts");
  await expect.poll(() => page.getByLabel("Draft name").inputValue()).toBe("Short-lived");
  await page.getByLabel("Draft name").fill("Short-lived, renamed");
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await page.getByRole("dialog", { name: "Delete this draft?" }).getByRole("button", { name: "Delete draft" }).click();
  await page.waitForURL((u) => u.pathname.endsWith("/email-drafts") && !u.searchParams.has("id"));
  expect(await leaveDialog().count()).toBe(0);
  expect(await made.project.app.listEmailDrafts()).toEqual([]);
});
