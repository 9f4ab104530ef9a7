/**
 * The AI assistant's model: any service that speaks the OpenAI chat-completions
 * protocol (POST <base URL>/chat/completions with a model and messages, answered
 * with choices whose message holds text and tool calls), configured by the
 * operator (LATCHKEY_AI_*). The domain sees only the `ChatCompletions`
 * interface, so another implementation can stand in for it.
 */
import type { Logger } from "pino";
import { z } from "zod";

export interface ChatCompletionsSettings {
  /** Up to and without `/chat/completions`, e.g. https://api.openai.com/v1. */
  baseUrl: string;
  /** Sent as a bearer token; null for services that need none (a local model server). */
  apiKey: string | null;
  model: string;
  timeoutMillis: number;
}

export type ChatMessage =
  | { role: "system" | "user"; content: string }
  | { role: "assistant"; content: string | null; tool_calls?: ChatToolCall[] }
  | { role: "tool"; content: string; tool_call_id: string };

export interface ChatToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ChatTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ChatAnswer {
  text: string | null;
  toolCalls: ChatToolCall[];
}

/** Why a completion failed, in words safe to show an admin (no key, no prompt). */
export class ChatCompletionsFailure extends Error {}

export interface ChatCompletions {
  /** Throws ChatCompletionsFailure when the service is unreachable, refuses, or answers out of protocol. */
  complete(input: { messages: ChatMessage[]; tools: ChatTool[] }): Promise<ChatAnswer>;
}

const answerSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullish(),
          tool_calls: z
            .array(
              z.object({
                id: z.string(),
                type: z.literal("function").optional(),
                function: z.object({ name: z.string(), arguments: z.string() }),
              }),
            )
            .nullish(),
        }),
      }),
    )
    .min(1),
});

export function httpChatCompletions(settings: ChatCompletionsSettings, logger: Logger): ChatCompletions {
  const url = `${settings.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  return {
    async complete({ messages, tools }) {
      const headers: Record<string, string> = { "content-type": "application/json" };
      if (settings.apiKey) headers.authorization = `Bearer ${settings.apiKey}`;
      let response: Response;
      try {
        response = await fetch(url, {
          method: "POST",
          headers,
          body: JSON.stringify({ model: settings.model, messages, ...(tools.length > 0 ? { tools } : {}) }),
          signal: AbortSignal.timeout(settings.timeoutMillis),
          redirect: "error",
        });
      } catch (error) {
        // The request carries the key and the admin's conversation: only the reason is logged.
        const reason = (error as Error).name === "TimeoutError" ? "no answer in time" : "unreachable";
        logger.warn({ reason: (error as Error).name, url }, "AI chat service unreachable");
        throw new ChatCompletionsFailure(reason);
      }
      if (!response.ok) {
        logger.warn({ status: response.status, url }, "AI chat service answered an error status");
        await response.body?.cancel();
        throw new ChatCompletionsFailure(`status ${response.status}`);
      }
      let parsed: z.infer<typeof answerSchema>;
      try {
        parsed = answerSchema.parse(await response.json());
      } catch (error) {
        logger.warn({ reason: (error as Error).name, url }, "AI chat service answer unreadable");
        throw new ChatCompletionsFailure("an answer outside the chat-completions protocol");
      }
      const message = parsed.choices[0]!.message;
      return {
        text: message.content ?? null,
        toolCalls: (message.tool_calls ?? []).map((call) => ({ id: call.id, type: "function", function: call.function })),
      };
    },
  };
}
