/**
 * A stand-in for an OpenAI-compatible chat-completions service on loopback:
 * it records every request (path, authorization, JSON body) and answers with
 * what the test sets (or never answers, to run the server's timeout out).
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface ChatCompletionsRequest {
  method: string;
  path: string;
  authorization: string | null;
  body: any;
}

export type ChatCompletionsReply = { status?: number; json: unknown } | "hang";

export interface ChatCompletionsPeer {
  /** The base URL to configure (LATCHKEY_AI_BASE_URL): requests go to `<url>/chat/completions`. */
  url: string;
  received: ChatCompletionsRequest[];
  reply: (request: ChatCompletionsRequest) => ChatCompletionsReply;
  close(): Promise<void>;
}

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

export async function startChatCompletionsPeer(): Promise<ChatCompletionsPeer> {
  const hanging = new Set<ServerResponse>();
  const peer: ChatCompletionsPeer = {
    url: "",
    received: [],
    reply: () => completion("Hello."),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  const server: Server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (raw += chunk));
    req.on("end", () => {
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // kept as text
      }
      const request: ChatCompletionsRequest = {
        method: req.method ?? "",
        path: req.url ?? "",
        authorization: req.headers.authorization ?? null,
        body,
      };
      peer.received.push(request);
      if (request.method !== "POST" || request.path !== "/v1/chat/completions") {
        res.writeHead(404, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { message: "not found" } }));
        return;
      }
      const reply = peer.reply(request);
      if (reply === "hang") {
        hanging.add(res);
        return;
      }
      res.writeHead(reply.status ?? 200, { "content-type": "application/json" });
      res.end(JSON.stringify(reply.json));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  peer.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return peer;
}
