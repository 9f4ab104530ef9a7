/**
 * "Ask for a change" in the e-mail template, theme and draft editors: offered when the server
 * has an AI assistant (here a chat-completions stand-in on loopback), its
 * proposal put in the editor and previewed, the conversation kept for next
 * time; a failing assistant says so; and no offer at all on a server
 * without one.
 */
import type { Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, expect, test } from "vitest";
import type { ChatCompletions } from "../../../../packages/server/src/integrations/chat-completions.ts";
import { completion, startChatCompletionsPeer, type ChatCompletionsPeer } from "../../../../packages/server/test/chat-completions-peer.ts";
import { expectHeading, ownerWithProject, screenshot, signInOwner, startDashboard, type Dashboard } from "./dashboard.ts";

let dashboard: Dashboard;
let page: Page;
let peer: ChatCompletionsPeer;
let made: Awaited<ReturnType<typeof ownerWithProject>>;

const PROPOSED = `import { Text } from "@react-email/components";
export const subject = "Hello";
export function EmailTemplate() {
  return <Text>Words the assistant proposed</Text>;
}
`;

beforeAll(async () => {
  peer = await startChatCompletionsPeer();
  dashboard = await startDashboard({
    config: { aiChat: { baseUrl: peer.url, apiKey: "sk-dashboard-test", model: "test-model", timeoutMillis: 5000 } },
  });
  made = await ownerWithProject(dashboard.url);
  page = await dashboard.openPage();
  await signInOwner(page, dashboard.url, made.email);
});
afterAll(async () => {
  await dashboard?.close();
  await peer?.close();
});
afterEach(() => dashboard.expectNoPageErrors());

const templatesUrl = () => `${dashboard.url}/projects/${made.id}/email-templates`;
const panel = () => page.getByRole("region", { name: "Ask for a change" });

test("the assistant's proposal goes into the editor and its preview, unsaved, and the conversation stays", async () => {
  peer.reply = () =>
    completion("I rewrote the text.", [{ id: "call_1", name: "createEmailTemplate", arguments: JSON.stringify({ content: PROPOSED }) }]);
  await page.goto(templatesUrl());
  await expectHeading(page, "Templates");
  await panel().waitFor({ timeout: 15_000 });
  await panel().getByLabel("Your request").fill("Say something friendlier");
  await panel().getByRole("button", { name: "Ask" }).click();
  await panel().getByText("I rewrote the text.").waitFor({ timeout: 15_000 });
  expect(await panel().getByText("Say something friendlier").count()).toBe(1);
  const asked = peer.received.at(-1)!;
  expect(asked.body.messages.at(-1)).toEqual({ role: "user", content: "Say something friendlier" });

  await panel().getByRole("button", { name: "Use this version" }).click();
  const preview = page.frameLocator('iframe[title="E-mail preview"]');
  await expect.poll(() => preview.locator("body").innerText(), { timeout: 15_000 }).toContain("Words the assistant proposed");
  // Not saved until the admin saves it.
  expect(await page.getByRole("button", { name: "Save", exact: true }).isEnabled()).toBe(true);
  await screenshot(page, "email-templates-ai-chat");

  // The conversation is kept with the template: it is there after a reload.
  page.once("dialog", (dialog) => void dialog.accept());
  await page.reload();
  await panel().getByText("I rewrote the text.").waitFor({ timeout: 15_000 });
  expect(await panel().getByText("Say something friendlier").count()).toBe(1);
});

test("the theme and draft editors offer it too, each with its own conversation about its own kind of source", async () => {
  const { id: themeId } = await made.project.app.createEmailTheme("Assisted theme");
  const { id: draftId } = await made.project.app.createEmailDraft({ displayName: "Assisted draft" });
  const preview = page.frameLocator('iframe[title="E-mail preview"]');
  const THEME = `export function EmailTheme({ children }) {
  return <div><p>Frame the assistant proposed</p>{children}</div>;
}
`;
  const cases = [
    {
      url: `${templatesUrl()}?tab=themes&id=${themeId}`,
      heading: "Templates",
      about: "an e-mail theme",
      tool: "createEmailTheme",
      proposal: THEME,
      shows: "Frame the assistant proposed",
    },
    {
      url: `${dashboard.url}/projects/${made.id}/email-drafts?id=${draftId}`,
      heading: "Drafts",
      about: "an e-mail draft",
      tool: "createEmailTemplate",
      proposal: PROPOSED,
      shows: "Words the assistant proposed",
    },
  ];
  for (const { url, heading, about, tool, proposal, shows } of cases) {
    const said = `Done for ${heading}.`;
    peer.reply = () => completion(said, [{ id: "call_1", name: tool, arguments: JSON.stringify({ content: proposal }) }]);
    await page.goto(url);
    await expectHeading(page, heading);
    await panel().waitFor({ timeout: 15_000 });
    // Nothing of the other editors' talk shows here.
    expect(
      await panel()
        .getByText(/Done for|I rewrote the text/)
        .count(),
    ).toBe(0);
    await panel().getByLabel("Your request").fill(`Change the ${heading}`);
    await panel().getByRole("button", { name: "Ask" }).click();
    await panel().getByText(said).waitFor({ timeout: 15_000 });
    // The server was asked about this kind of source.
    expect(JSON.stringify(peer.received.at(-1)!.body.messages[0])).toContain(about);
    await panel().getByRole("button", { name: "Use this version" }).click();
    await expect.poll(() => preview.locator("body").innerText(), { timeout: 15_000 }).toContain(shows);
    expect(await page.getByRole("button", { name: "Save", exact: true }).isEnabled()).toBe(true);
    page.once("dialog", (dialog) => void dialog.accept());
  }
  // Each conversation is kept under what it is about.
  const kept = async (thread: string) => JSON.stringify((await made.project.app.listChatMessages(thread)).messages);
  expect(await kept(themeId)).toContain("Done for Templates.");
  expect(await kept(draftId)).toContain("Done for Drafts.");
  expect(await kept(draftId)).not.toContain("Done for Templates.");
});

test("an assistant that fails says so in the panel", async () => {
  peer.reply = () => ({ status: 500, json: { error: { message: "down" } } });
  await page.goto(templatesUrl());
  await panel().waitFor({ timeout: 15_000 });
  await panel().getByLabel("Your request").fill("Make it blue");
  await panel().getByRole("button", { name: "Ask" }).click();
  await expect.poll(() => panel().getByRole("alert").filter({ hasText: "did not answer usefully" }).count(), { timeout: 15_000 }).toBe(1);
});

test("a server without an assistant offers none", async () => {
  const services = dashboard.server.instance.services;
  const configured: ChatCompletions | null = services.chatCompletions;
  // What the server is built with when LATCHKEY_AI_BASE_URL is unset (server.ts).
  services.chatCompletions = null;
  try {
    await page.goto(templatesUrl());
    await expectHeading(page, "Templates");
    await page.getByRole("textbox", { name: "Template source" }).waitFor({ timeout: 15_000 });
    const preview = page.frameLocator('iframe[title="E-mail preview"]');
    await expect.poll(() => preview.locator("body").innerText(), { timeout: 15_000 }).not.toBe("");
    expect(await panel().count()).toBe(0);
  } finally {
    services.chatCompletions = configured;
  }
});
