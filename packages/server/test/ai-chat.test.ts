/**
 * The AI assistant's threads (/internal/ai-chat/{thread_id}): messages saved
 * and listed per project, and replies generated through an OpenAI-compatible
 * chat-completions service, here a stand-in on loopback; without one
 * configured, replies answer AI_CHAT_NOT_CONFIGURED.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { configFromEnv } from "../src/config.ts";
import { StartupError } from "../src/process/startup-error.ts";
import { completion, startChatCompletionsPeer, type ChatCompletionsPeer } from "./chat-completions-peer.ts";
import { createProject, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type TestResponse, type TestServer } from "./harness.ts";

const API_KEY = "sk-test-ai-chat-key-7d1e0b";

let peer: ChatCompletionsPeer;
let server: TestServer;
let unconfigured: TestServer;
let project: Project;
let other: Project;

beforeAll(async () => {
  peer = await startChatCompletionsPeer();
  [server, unconfigured] = await Promise.all([
    createTestServer({ aiChat: { baseUrl: peer.url, apiKey: API_KEY, model: "test-model", timeoutMillis: 500 } }),
    createTestServer(),
  ]);
  [project, other] = await Promise.all([createProject(server), createProject(server)]);
});
afterAll(async () => {
  await Promise.all([server?.close(), unconfigured?.close()]);
  await peer?.close();
});

const expectSchemaError = (res: TestResponse) => expectKnownError(res, "SCHEMA_ERROR", 400);

const thread = (id: string) => `/internal/ai-chat/${id}`;

function save(p: Project, threadId: string, message: unknown, on = server) {
  return on.request(thread(threadId), { method: "PATCH", as: p.admin, body: { message } });
}

function reply(p: Project, threadId: string, body: Record<string, unknown>, on = server) {
  return on.request(thread(threadId), { method: "POST", as: p.admin, body });
}

describe("the operator's settings", () => {
  it("are off without LATCHKEY_AI_BASE_URL; with it, a model is required and the key optional", () => {
    expect(configFromEnv({}).aiChat).toBeNull();
    expect(
      configFromEnv({ LATCHKEY_AI_BASE_URL: "https://ai.example.com/v1/", LATCHKEY_AI_MODEL: "m", LATCHKEY_AI_API_KEY: "k" }).aiChat,
    ).toEqual({
      baseUrl: "https://ai.example.com/v1",
      apiKey: "k",
      model: "m",
      timeoutMillis: 60_000,
    });
    expect(configFromEnv({ LATCHKEY_AI_BASE_URL: "http://localhost:11434/v1", LATCHKEY_AI_MODEL: "m" }).aiChat?.apiKey).toBeNull();
    expect(() => configFromEnv({ LATCHKEY_AI_BASE_URL: "https://ai.example.com/v1" })).toThrow(/LATCHKEY_AI_MODEL/);
    expect(() => configFromEnv({ LATCHKEY_AI_BASE_URL: "ftp://ai.example.com", LATCHKEY_AI_MODEL: "m" })).toThrow(StartupError);
    expect(() => configFromEnv({ LATCHKEY_AI_MODEL: "m" })).toThrow(/need LATCHKEY_AI_BASE_URL/);
  });

  it("GET /internal/ai-chat says whether the assistant is available", async () => {
    expect((await server.request("/internal/ai-chat", { as: project.admin })).body).toEqual({ enabled: true });
    const off = await unconfigured.request("/internal/ai-chat", { as: unconfigured.internal.admin });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toEqual({ enabled: false });
  });
});

describe("a thread's messages", () => {
  it("are listed oldest first, as saved; a new thread is empty", async () => {
    const id = randomUUID();
    expect((await server.request(thread(id), { as: project.admin })).body).toEqual({ messages: [] });
    const messages = [
      { role: "user", content: [{ type: "text", text: "Make the button green" }] },
      {
        role: "assistant",
        content: [
          {
            type: "tool-call",
            toolName: "createEmailTemplate",
            toolCallId: "c1",
            args: { content: "x" },
            argsText: "{}",
            result: "success",
          },
        ],
      },
      "a plain string is a message too",
    ];
    for (const message of messages) {
      const saved = await save(project, id, message);
      expect(saved.status, saved.text).toBe(200);
      expect(saved.body).toEqual({});
    }
    expect((await server.request(thread(id), { as: project.admin })).body).toEqual({ messages });
  });

  it("are kept per project and per thread", async () => {
    const id = `thread-${randomUUID()}`;
    await save(project, id, { role: "user", content: "mine" });
    expect((await server.request(thread(id), { as: other.admin })).body).toEqual({ messages: [] });
    expect((await server.request(thread(`${id}-2`), { as: project.admin })).body).toEqual({ messages: [] });
    expect((await server.request(thread(id), { as: project.admin })).body.messages).toEqual([{ role: "user", content: "mine" }]);
  });

  it("are for admins only", async () => {
    const id = randomUUID();
    for (const as of [project.client, project.server]) {
      expectKnownError(await server.request(thread(id), { as }), "INSUFFICIENT_ACCESS_TYPE", 401);
      expectKnownError(await server.request(thread(id), { method: "PATCH", as, body: { message: "x" } }), "INSUFFICIENT_ACCESS_TYPE", 401);
      expectKnownError(
        await server.request(thread(id), {
          method: "POST",
          as,
          body: { context_type: "email-template", messages: [{ role: "user", content: "hi" }] },
        }),
        "INSUFFICIENT_ACCESS_TYPE",
        401,
      );
    }
    expectKnownError(await server.request(thread(id)), "ACCESS_TYPE_REQUIRED");
  });

  it("a message is required, and nothing else is taken", async () => {
    const id = randomUUID();
    expectSchemaError(await server.request(thread(id), { method: "PATCH", as: project.admin, body: {} }));
    expectSchemaError(await server.request(thread(id), { method: "PATCH", as: project.admin, body: { message: null } }));
    expectSchemaError(await server.request(thread(id), { method: "PATCH", as: project.admin, body: { message: "x", extra: 1 } }));
    expect((await server.request(thread(id), { as: project.admin })).body).toEqual({ messages: [] });
  });
});

describe("POST: the assistant's reply", () => {
  it("asks the configured service, with the template being edited, and answers text and tool-call blocks", async () => {
    const templates = await server.request("/internal/email-templates", { as: project.admin });
    const template = templates.body.templates[0];
    const proposed = "export function EmailTemplate() { return <p>Green</p>; }";
    peer.reply = () =>
      completion("I made the button green.", [
        { id: "call_1", name: "createEmailTemplate", arguments: JSON.stringify({ content: proposed }) },
      ]);
    const before = peer.received.length;
    const res = await reply(project, template.id, {
      context_type: "email-template",
      messages: [
        { role: "user", content: [{ type: "text", text: "Make it blue" }] },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Done." },
            {
              type: "tool-call",
              toolName: "createEmailTemplate",
              toolCallId: "call_0",
              args: { content: "blue" },
              argsText: '{"content":"blue"}',
              result: "success",
            },
          ],
        },
        { role: "user", content: "Now green, please" },
      ],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      content: [
        { type: "text", text: "I made the button green." },
        {
          type: "tool-call",
          toolName: "createEmailTemplate",
          toolCallId: "call_1",
          args: { content: proposed },
          argsText: JSON.stringify({ content: proposed }),
          result: "success",
        },
      ],
    });

    expect(peer.received.length).toBe(before + 1);
    const sent = peer.received.at(-1)!;
    expect(sent.method).toBe("POST");
    expect(sent.path).toBe("/v1/chat/completions");
    expect(sent.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent.body.model).toBe("test-model");
    expect(sent.body.tools.map((t: any) => t.function.name)).toEqual(["createEmailTemplate"]);
    const [system, ...rest] = sent.body.messages;
    expect(system.role).toBe("system");
    expect(system.content).toContain(template.tsx_source);
    expect(rest).toEqual([
      { role: "user", content: "Make it blue" },
      {
        role: "assistant",
        content: "Done.",
        tool_calls: [{ id: "call_0", type: "function", function: { name: "createEmailTemplate", arguments: '{"content":"blue"}' } }],
      },
      { role: "tool", tool_call_id: "call_0", content: '"success"' },
      { role: "user", content: "Now green, please" },
    ]);
    // The assistant proposes; nothing was saved.
    const after = await server.request(`/internal/email-templates/${template.id}`, { as: project.admin });
    expect(after.body.tsx_source).toBe(template.tsx_source);
  });

  it("offers the theme tool for a theme, and a text-only answer is one text block", async () => {
    peer.reply = () => completion("Themes frame every message.");
    const res = await reply(project, randomUUID(), {
      context_type: "email-theme",
      messages: [{ role: "user", content: "What is a theme?" }],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ content: [{ type: "text", text: "Themes frame every message." }] });
    const sent = peer.received.at(-1)!;
    expect(sent.body.tools.map((t: any) => t.function.name)).toEqual(["createEmailTheme"]);
    // A thread not named after a source of the project shows the assistant none.
    expect(sent.body.messages[0].content).not.toContain("The current source");
  });

  it("without a configured service answers AI_CHAT_NOT_CONFIGURED, asking no one", async () => {
    const before = peer.received.length;
    const res = await unconfigured.request(thread(randomUUID()), {
      method: "POST",
      as: unconfigured.internal.admin,
      body: { context_type: "email-template", messages: [{ role: "user", content: "hi" }] },
    });
    expectKnownError(res, "AI_CHAT_NOT_CONFIGURED", 501);
    expect(res.body.error).toMatch(/LATCHKEY_AI_BASE_URL/);
    expect(peer.received.length).toBe(before);
    // Threads are kept all the same.
    const id = randomUUID();
    expect(
      (await unconfigured.request(thread(id), { method: "PATCH", as: unconfigured.internal.admin, body: { message: "m" } })).status,
    ).toBe(200);
    expect((await unconfigured.request(thread(id), { as: unconfigured.internal.admin })).body).toEqual({ messages: ["m"] });
  });

  it("a service that fails, answers out of protocol or not in time answers AI_CHAT_PROVIDER_ERROR, and never logs the key", async () => {
    const body = { context_type: "email-template", messages: [{ role: "user", content: "hi" }] };
    peer.reply = () => ({ status: 500, json: { error: { message: "boom" } } });
    let res = await reply(project, randomUUID(), body);
    expectKnownError(res, "AI_CHAT_PROVIDER_ERROR", 502);
    expect(res.body.details).toEqual({ reason: "status 500" });
    peer.reply = () => ({ json: { choices: [] } });
    res = await reply(project, randomUUID(), body);
    expectKnownError(res, "AI_CHAT_PROVIDER_ERROR", 502);
    expect(res.body.details.reason).toBe("an answer outside the chat-completions protocol");
    peer.reply = () => "hang";
    res = await reply(project, randomUUID(), body);
    expectKnownError(res, "AI_CHAT_PROVIDER_ERROR", 502);
    expect(res.body.details.reason).toBe("no answer in time");
    expect(JSON.stringify(server.logs)).not.toContain(API_KEY);
    expect(server.logs.some((line) => line.msg === "AI chat service answered an error status")).toBe(true);
  });

  it("refuses a missing or unknown context, and no messages, before asking anyone", async () => {
    const before = peer.received.length;
    const id = randomUUID();
    expectSchemaError(await reply(project, id, { messages: [{ role: "user", content: "hi" }] }));
    expectSchemaError(await reply(project, id, { context_type: "dashboard", messages: [{ role: "user", content: "hi" }] }));
    expectSchemaError(await reply(project, id, { context_type: "email-template", messages: [] }));
    expectSchemaError(await reply(project, id, { context_type: "email-template", messages: [{ role: "system", content: "x" }] }));
    expectSchemaError(await reply(project, id, { context_type: "email-template", messages: [{ role: "user" }] }));
    expect(peer.received.length).toBe(before);
  });
});
