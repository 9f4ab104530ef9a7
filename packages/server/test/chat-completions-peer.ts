/**
 * A stand-in for an OpenAI-compatible chat-completions service on loopback:
 * it records every request (path, authorization, JSON body) and answers with
 * what the test sets (or never answers, to run the server's timeout out).
 */
import { startLoopbackPeer, type LoopbackPeer, type PeerReply } from "./loopback-peer.ts";

export interface ChatCompletionsRequest {
  method: string;
  path: string;
  authorization: string | null;
  body: any;
}

export type ChatCompletionsReply = PeerReply;

/** `url` is the base URL to configure (LATCHKEY_AI_BASE_URL): requests go to `<url>/chat/completions`. */
export type ChatCompletionsPeer = LoopbackPeer<ChatCompletionsRequest>;

/** A completion as the protocol answers it: one choice with text and tool calls. */
export function completion(text: string | null, toolCalls: { id: string; name: string; arguments: string }[] = []): ChatCompletionsReply {
  return {
    json: {
      id: "chatcmpl-test",
      object: "chat.completion",
      created: 0,
      model: "test-model",
      choices: [
        {
          index: 0,
          finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
          message: {
            role: "assistant",
            content: text,
            ...(toolCalls.length > 0
              ? { tool_calls: toolCalls.map((c) => ({ id: c.id, type: "function", function: { name: c.name, arguments: c.arguments } })) }
              : {}),
          },
        },
      ],
    },
  };
}

export function startChatCompletionsPeer(): Promise<ChatCompletionsPeer> {
  return startLoopbackPeer<ChatCompletionsRequest>({
    path: "/v1/chat/completions",
    urlPath: "/v1",
    read: (req, raw) => {
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // kept as text
      }
      return { method: req.method ?? "", path: req.url ?? "", authorization: req.headers.authorization ?? null, body };
    },
    reply: () => completion("Hello."),
  });
}
