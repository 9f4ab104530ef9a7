/**
 * The admin app's AI assistant calls, against a real server whose model is a
 * chat-completions stand-in on loopback: threads saved and listed
 * (`saveChatMessage`, `listChatMessages`), replies (`sendChatMessage`), and
 * the typed errors when the server has no model or the model fails.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnownErrors } from "@latchkey/shared";
import { completion, startChatCompletionsPeer, type ChatCompletionsPeer } from "../../../server/test/chat-completions-peer.ts";
import { createSdkProject, type SdkProject } from "./fixtures.ts";
import { startServer, type TestServer } from "./support.ts";

let peer: ChatCompletionsPeer;
let server: TestServer;
let unconfigured: TestServer;
let project: SdkProject;
let plain: SdkProject;

beforeAll(async () => {
  peer = await startChatCompletionsPeer();
  const [configured, off] = await Promise.all([
    startServer({ aiChat: { baseUrl: peer.url, apiKey: "sk-sdk-test", model: "test-model", timeoutMillis: 2000 } }),
    startServer(),
  ]);
  server = configured.server;
  unconfigured = off.server;
  [project, plain] = await Promise.all([createSdkProject(configured.baseUrl), createSdkProject(off.baseUrl)]);
});
afterAll(async () => {
  await Promise.all([server?.close(), unconfigured?.close()]);
  await peer?.close();
});

describe("StackAdminApp's AI chat", () => {
  it("saves messages to a thread and lists them back, oldest first", async () => {
    const admin = project.project.app;
    const threadId = randomUUID();
    expect(await admin.listChatMessages(threadId)).toEqual({ messages: [] });
    const first = { role: "user", content: [{ type: "text", text: "Make it shorter" }] };
    const second = { role: "assistant", content: [{ type: "text", text: "Done." }] };
    await expect(admin.saveChatMessage(threadId, first)).resolves.toBeUndefined();
    await admin.saveChatMessage(threadId, second);
    expect(await admin.listChatMessages(threadId)).toEqual({ messages: [first, second] });
    // Another project's admin sees none of it.
    expect(await plain.project.app.listChatMessages(threadId)).toEqual({ messages: [] });
  });

  it("answers the assistant's reply as content blocks, and says whether the assistant is there", async () => {
    const admin = project.project.app;
    expect(await admin.isAiChatEnabled()).toBe(true);
    expect(await plain.project.app.isAiChatEnabled()).toBe(false);
    peer.reply = () => completion("Shorter now.", [{ id: "call_9", name: "createEmailTemplate", arguments: '{"content":"short"}' }]);
    const reply = await admin.sendChatMessage(randomUUID(), "email-template", [{ role: "user", content: "Make it shorter" }]);
    expect(reply).toEqual({
      content: [
        { type: "text", text: "Shorter now." },
        {
          type: "tool-call",
          toolName: "createEmailTemplate",
          toolCallId: "call_9",
          args: { content: "short" },
          argsText: '{"content":"short"}',
          result: "success",
        },
      ],
    });
  });

  it("throws the typed errors: no model on the server, a failing model, an empty conversation", async () => {
    const off = plain.project.app.sendChatMessage(randomUUID(), "email-template", [{ role: "user", content: "hi" }]);
    await expect(off).rejects.toBeInstanceOf(KnownErrors.AiChatNotConfigured);
    peer.reply = () => ({ status: 503, json: {} });
    const failing = project.project.app.sendChatMessage(randomUUID(), "email-theme", [{ role: "user", content: "hi" }]);
    await expect(failing).rejects.toBeInstanceOf(KnownErrors.AiChatProviderError);
    await expect(project.project.app.sendChatMessage(randomUUID(), "email-theme", [])).rejects.toBeInstanceOf(KnownErrors.SchemaError);
  });
});
