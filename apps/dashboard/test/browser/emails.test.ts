/**
 * The e-mail pages on a server without a shared SMTP server: a template
 * edited with its live preview and an inline render error, a test send
 * through a real SMTP peer, a magic-link mail read in the dev outbox with its
 * link signing its user in to the project's app, the sent list, drafts (one
 * sent to every user after a confirmation), and the warning for a project in
 * production mode without SMTP.
 */
import type { Page } from "playwright-core";
import { startDemoApp, type DemoApp } from "../../../../packages/react/test/browser/demo-app.ts";
import { insertQueuedEmail } from "../../../../packages/server/src/domain/emails/queue.ts";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import { StackClientApp } from "../../../../packages/js/src/index.ts";
import { startSmtpPeer, type SmtpPeer } from "../../../../packages/server/test/smtp-peer.ts";
import { expectHeading, ownerWithProject, screenshot, signInOwner, startDashboard, uniqueEmail, type Dashboard } from "./dashboard.ts";

let dashboard: Dashboard;
let page: Page;
let peer: SmtpPeer;
let made: Awaited<ReturnType<typeof ownerWithProject>>;
/** The project's own app, where a magic link read in the outbox signs its user in. */
let demo: DemoApp;

beforeAll(async () => {
  [dashboard, peer] = await Promise.all([startDashboard(), startSmtpPeer()]);
  made = await ownerWithProject(dashboard.url, { magicLinkEnabled: true });
  page = await dashboard.openPage();
  await Promise.all([
    signInOwner(page, dashboard.url, made.email),
    (async () => {
      demo = await startDemoApp({
        VITE_LATCHKEY_API_URL: dashboard.url,
        VITE_LATCHKEY_PROJECT_ID: made.id,
        VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: made.publishableClientKey,
      });
      await made.project.update({ config: { domains: [{ domain: demo.url, handlerPath: "/handler" }] } });
      // The first visit makes Vite bundle the app: done here, not in a test.
      const warm = await demo.openPage();
      await warm.goto(`${demo.url}/`);
      await warm.getByText("You are not signed in yet.").waitFor({ timeout: 30_000 });
    })(),
  ]);
});

afterAll(async () => {
  await demo?.close();
  await dashboard?.close();
  await peer?.close();
});
afterEach(() => dashboard.expectNoPageErrors());

const projectUrl = (path: string) => `${dashboard.url}/projects/${made.id}/${path}`;

/** Custom templates and drafts need the project's own SMTP server: each test that needs it sets it. */
async function useOwnSmtp() {
  await made.project.update({
    config: {
      emailConfig: {
        type: "standard",
        host: "127.0.0.1",
        port: peer.port,
        username: "",
        password: "",
        senderName: "Shop",
        senderEmail: "shop@example.com",
      },
    },
  });
}

async function editorText(source: string) {
  const editor = page.getByRole("textbox", { name: "Template source" });
  await editor.click();
  await page.keyboard.press("ControlOrMeta+a");
  await page.keyboard.insertText(source);
}

test("a template's preview follows the editor, and broken TSX shows its error beside it", async () => {
  await page.goto(projectUrl("email-templates"));
  await expectHeading(page, "Templates");
  const preview = page.frameLocator('iframe[title="E-mail preview"]');
  await expect.poll(() => preview.locator("body").innerText(), { timeout: 15_000 }).not.toBe("");
  await editorText(`import { Text } from "@react-email/components";
export const subject = "Hello";
export function EmailTemplate() {
  return <Text>Freshly typed words</Text>;
}
`);
  await expect.poll(() => preview.locator("body").innerText(), { timeout: 15_000 }).toContain("Freshly typed words");
  await screenshot(page, "email-templates");
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, "email-templates-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await editorText("export function EmailTemplate( {");
  await expect.poll(() => page.getByRole("alert").filter({ hasText: "could not be rendered" }).count(), { timeout: 15_000 }).toBe(1);
  // The last good render stays in view.
  expect(await preview.locator("body").innerText()).toContain("Freshly typed words");
});

test("a test e-mail goes through the SMTP settings typed in, and says so", async () => {
  await page.goto(projectUrl("emails"));
  await expectHeading(page, "E-mail settings");
  await page.getByLabel("Your own SMTP server").check();
  await page.getByLabel("Host", { exact: true }).fill("127.0.0.1");
  await page.getByLabel("Port", { exact: true }).fill(String(peer.port));
  await page.getByLabel("Sender e-mail", { exact: true }).fill("shop@example.com");
  const to = uniqueEmail("test-send");
  await page.getByLabel("Send the test to").fill(to);
  await page.getByRole("button", { name: "Send test e-mail" }).click();
  await expect.poll(() => page.getByText(`The test e-mail was sent to ${to}.`).count(), { timeout: 15_000 }).toBe(1);
  await peer.waitFor((m) => JSON.stringify(m.to).includes(to));
  await screenshot(page, "email-settings");
});

test("without an SMTP server a magic link's mail is in the outbox, and its link signs the user in to the app", async () => {
  const client = new StackClientApp({
    baseUrl: dashboard.url,
    projectId: made.id,
    publishableClientKey: made.publishableClientKey,
    tokenStore: "memory",
  });
  const user = uniqueEmail("outbox");
  const callbackUrl = `${demo.url}/handler/magic-link-callback`;
  await client.sendMagicLinkEmail(user, { callbackUrl });
  await dashboard.server.instance.services.emails.flush();
  await page.goto(projectUrl("outbox"));
  await expectHeading(page, "Outbox");
  const mail = page.frameLocator("iframe[title^='E-mail:']");
  const link = mail.locator(`a[href^="${callbackUrl}?code="]`).first();
  await expect.poll(() => link.count(), { timeout: 15_000 }).toBe(1);
  expect(await page.locator("iframe[title^='E-mail:']").getAttribute("sandbox")).toBe("allow-popups allow-popups-to-escape-sandbox");
  await screenshot(page, "outbox");
  // The link opens in a new tab, at the app's handler page, which signs the user in there.
  const [tab] = await Promise.all([page.context().waitForEvent("page"), link.click()]);
  await tab.waitForURL((u) => u.href.startsWith(`${callbackUrl}?code=`));
  await tab.getByRole("button", { name: "Sign in", exact: true }).click();
  await tab.waitForURL((u) => u.origin === demo.url && u.pathname === "/", { timeout: 15_000 });
  await expect.poll(() => tab.getByText(`Signed in as ${user}`).count(), { timeout: 15_000 }).toBe(1);
  await tab.close();

  await page.getByRole("link", { name: "Sent" }).click();
  await expectHeading(page, "Sent e-mail");
  const row = page.getByRole("row").filter({ hasText: user });
  await expect.poll(() => row.getByText("In the outbox").count()).toBe(1);
  await screenshot(page, "emails-sent");
});

test("a draft is previewed, then sent to a chosen user through the project's own SMTP server", async () => {
  const { id } = await made.project.app.createEmailDraft({ displayName: "Spring news" });
  await page.goto(projectUrl(`email-drafts?id=${id}`));
  await expectHeading(page, "Drafts");
  await expect.poll(() => page.getByLabel("Draft name").inputValue()).toBe("Spring news");
  const preview = page.frameLocator('iframe[title="E-mail preview"]');
  await expect.poll(() => preview.locator("body").innerText(), { timeout: 15_000 }).toContain("Write your message");
  await expect.poll(() => page.getByText("Drafts go out through your own SMTP server only.").count()).toBe(1);
  await screenshot(page, "email-drafts");

  const reader = uniqueEmail("reader");
  await made.project.app.createUser({ primaryEmail: reader });
  await useOwnSmtp();
  await page.reload();
  await page.getByLabel("Find users").fill(reader);
  await page.getByRole("checkbox", { name: reader }).check();
  await page.getByRole("button", { name: "Send to 1 user" }).click();
  await expect.poll(() => page.getByText("Sent to 1 user.").count()).toBe(1);
  await dashboard.server.instance.services.emails.flush();
  await peer.waitFor((m) => JSON.stringify(m.to).includes(reader));
});

test("with the project's own SMTP server, a template is created, then deleted after a confirmation", async () => {
  await useOwnSmtp();
  await page.goto(projectUrl("email-templates"));
  await expectHeading(page, "Templates");
  await page.getByRole("button", { name: "New template" }).click();
  await page.getByLabel("Template name").fill("Receipt");
  await page.getByRole("button", { name: "Create" }).click();
  const entry = page.getByRole("navigation", { name: "Templates", exact: true }).getByRole("link", { name: "Receipt" });
  await expect.poll(() => entry.getAttribute("aria-current")).toBe("page");
  await page.getByRole("button", { name: "Delete", exact: true }).click();
  await page.getByRole("dialog", { name: "Delete this template?" }).getByRole("button", { name: "Delete template" }).click();
  await expect.poll(() => entry.count()).toBe(0);
  expect((await made.project.app.listEmailTemplates()).map((t) => t.displayName)).not.toContain("Receipt");
});

test("sending a draft to every user asks first, saying how many, and the list then marks it sent", async () => {
  await useOwnSmtp();
  const { id } = await made.project.app.createEmailDraft({ displayName: "Everyone news" });
  await made.project.app.createUser({ primaryEmail: uniqueEmail("everyone") });
  const total = (await made.project.app.getMetrics()).totalUsers;
  await page.goto(projectUrl(`email-drafts?id=${id}`));
  await expectHeading(page, "Drafts");
  const entry = page.getByRole("navigation", { name: "Drafts", exact: true }).getByRole("link", { name: /Everyone news/ });
  await expect.poll(() => entry.innerText()).toContain("Not sent");
  await page.getByLabel("Every user of the project").check();
  await page.getByRole("button", { name: "Send to every user" }).click();
  const dialog = page.getByRole("dialog", { name: "Send to every user?" });
  await expect.poll(() => dialog.innerText()).toContain(`all ${total} users`);
  await screenshot(page, "email-drafts-send-all");
  // The first click only asked: nothing went out.
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  expect((await made.project.app.listEmailDrafts()).find((d) => d.id === id)!.sentAt).toBeNull();

  await page.getByRole("button", { name: "Send to every user" }).click();
  await dialog.getByRole("button", { name: `Send to ${total} users` }).click();
  await expect.poll(() => dialog.count()).toBe(0);
  await expect.poll(() => page.getByText(`Sent to ${total} users.`).count()).toBe(1);
  await expect.poll(() => entry.innerText()).toContain("Sent ");
});

test("a project in production mode without SMTP is warned about, and its outbox mail has no body to read", async () => {
  await made.project.update({
    isProductionMode: true,
    config: { allowLocalhost: false, domains: [], emailConfig: { type: "shared" } },
  });
  const services = dashboard.server.instance.services;
  await insertQueuedEmail(
    services.db,
    made.id,
    { to: ["prod@example.com"], subject: "Production sign-in", html: "<p>code</p>" },
    services.clock.date(),
  );
  await services.emails.flush();
  await page.goto(projectUrl("emails"));
  await expectHeading(page, "E-mail settings");
  await expect.poll(() => page.getByRole("alert").filter({ hasText: "in production mode, but its mail is not delivered" }).count()).toBe(1);
  await screenshot(page, "email-settings-production-warning");
  await page.getByRole("link", { name: "Sent" }).click();
  await expectHeading(page, "Sent e-mail");
  const row = page.getByRole("row").filter({ hasText: "Production sign-in" });
  await expect.poll(() => row.getByText("In the outbox").count()).toBe(1);
  expect(await row.getByRole("link", { name: "Read it" }).count()).toBe(0);
});
