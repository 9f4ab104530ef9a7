/**
 * The assistant's next reply to a conversation about one e-mail theme,
 * template or draft. The conversation comes as clients keep it (text, or
 * content blocks with the tool calls of earlier replies); it is put into the
 * chat-completions protocol, with the source being edited when the thread is
 * named after it, and the answer is turned back into content blocks.
 */
import { KnownErrors, UUID_PATTERN, type AiChatContentJson, type AiChatContextType, type AiChatMessageJson } from "@latchkey/shared";
import type { DbOrTx } from "../../../db/connect.ts";
import type { Tenancy } from "../../../db/tenancy.ts";
import { loadDraft, loadTemplate, loadTheme } from "../../../domain/emails/templates/render-stored.ts";
import { ChatCompletionsFailure, type ChatCompletions, type ChatMessage } from "../../../integrations/chat-completions.ts";
import { contextTools, systemPrompt } from "./prompts.ts";

export interface ReplyInput {
  context: AiChatContextType;
  threadId: string;
  messages: AiChatMessageJson[];
}

export async function replyToThread(
  db: DbOrTx,
  model: ChatCompletions | null,
  tenancy: Tenancy,
  input: ReplyInput,
): Promise<AiChatContentJson> {
  if (!model) throw new KnownErrors.AiChatNotConfigured();
  const source = await currentSource(db, tenancy, input.context, input.threadId);
  let answer;
  try {
    answer = await model.complete({
      messages: [{ role: "system", content: systemPrompt(input.context, source) }, ...input.messages.flatMap(toChatMessages)],
      tools: contextTools(input.context),
    });
  } catch (error) {
    if (error instanceof ChatCompletionsFailure) throw new KnownErrors.AiChatProviderError(error.message);
    throw error;
  }
  const blocks: AiChatContentJson = [];
  if (answer.text) blocks.push({ type: "text", text: answer.text });
  for (const call of answer.toolCalls) {
    blocks.push({
      type: "tool-call",
      toolName: call.function.name,
      toolCallId: call.id,
      args: parseArguments(call.function.arguments),
      argsText: call.function.arguments,
      result: "success",
    });
  }
  return blocks;
}

/** The dashboard names a thread after the template, theme or draft it edits: then the assistant sees its source. */
async function currentSource(db: DbOrTx, tenancy: Tenancy, context: AiChatContextType, threadId: string): Promise<string | null> {
  if (!UUID_PATTERN.test(threadId)) return null;
  const row =
    context === "email-template"
      ? await loadTemplate(db, tenancy.projectId, threadId)
      : context === "email-theme"
        ? await loadTheme(db, tenancy.projectId, threadId)
        : await loadDraft(db, tenancy.projectId, threadId);
  return row?.tsxSource ?? null;
}

function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * One client message in the protocol. An assistant's earlier tool calls are
 * followed by their results, as the protocol requires; the client's own tool
 * messages are left out, their results being on the calls already.
 */
function toChatMessages(message: AiChatMessageJson): ChatMessage[] {
  if (message.role === "tool") return [];
  if (message.role === "user") return [{ role: "user", content: textOf(message.content) }];
  const blocks = Array.isArray(message.content) ? (message.content as unknown[]) : [message.content];
  const text = blocks
    .filter((block) => !isToolCall(block))
    .map(textOf)
    .join("\n");
  const calls = blocks.filter(isToolCall);
  if (calls.length === 0) return [{ role: "assistant", content: text }];
  return [
    {
      role: "assistant",
      content: text || null,
      tool_calls: calls.map((call) => ({
        id: call.toolCallId,
        type: "function",
        function: { name: call.toolName, arguments: typeof call.argsText === "string" ? call.argsText : JSON.stringify(call.args ?? {}) },
      })),
    },
    ...calls.map((call) => ({ role: "tool" as const, tool_call_id: call.toolCallId, content: JSON.stringify(call.result ?? "success") })),
  ];
}

interface ToolCallBlock {
  type: "tool-call";
  toolName: string;
  toolCallId: string;
  args?: unknown;
  argsText?: unknown;
  result?: unknown;
}

function isToolCall(block: unknown): block is ToolCallBlock {
  if (typeof block !== "object" || block === null) return false;
  const b = block as Record<string, unknown>;
  return b.type === "tool-call" && typeof b.toolName === "string" && typeof b.toolCallId === "string";
}

/** Text as clients keep it: a string, or text parts. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map(textOf).join("\n");
  if (typeof content === "object" && content !== null) {
    const part = content as Record<string, unknown>;
    if (part.type === "text" && typeof part.text === "string") return part.text;
  }
  return JSON.stringify(content);
}
