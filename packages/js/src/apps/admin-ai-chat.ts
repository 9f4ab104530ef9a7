/**
 * An admin app's AI assistant for e-mail themes, templates and drafts: the
 * threads of saved messages, and the assistant's reply, with the names and
 * shapes apps written for the official SDK use. Replies need the server's
 * operator to have connected a model (`isAiChatEnabled`); without one they
 * throw AI_CHAT_NOT_CONFIGURED.
 */
import type { AiChatContentJson, AiChatContextType } from "@latchkey/shared/api/index";
import type { AdminProjectContext } from "../models/admin-project.ts";

/** The blocks of the assistant's reply: text, and tool calls whose `args.content` is a proposed new source. */
export type ChatContent = AiChatContentJson;
export type ChatContextType = AiChatContextType;

export class AdminAiChat {
  constructor(private readonly context: AdminProjectContext) {}

  private get asAdmin() {
    return { accessType: "admin", adminSession: this.context.adminSession } as const;
  }

  /** Whether the server offers the assistant (its operator connected a chat-completions service). */
  async isAiChatEnabled(): Promise<boolean> {
    return (await this.context.api.call("GET /internal/ai-chat", this.asAdmin)).enabled;
  }

  /** The assistant's reply to the conversation so far (nothing is saved: save the messages with `saveChatMessage`). */
  async sendChatMessage(
    threadId: string,
    contextType: ChatContextType,
    messages: Array<{ role: "user" | "assistant" | "tool"; content: unknown }>,
  ): Promise<{ content: ChatContent }> {
    return this.context.api.call("POST /internal/ai-chat/:thread_id", {
      ...this.asAdmin,
      params: { thread_id: threadId },
      body: { context_type: contextType, messages },
    });
  }

  /** Appends a message (any JSON) to a thread. */
  async saveChatMessage(threadId: string, message: unknown): Promise<void> {
    await this.context.api.call("PATCH /internal/ai-chat/:thread_id", {
      ...this.asAdmin,
      params: { thread_id: threadId },
      body: { message },
    });
  }

  /** A thread's messages as saved, oldest first. */
  async listChatMessages(threadId: string): Promise<{ messages: unknown[] }> {
    return this.context.api.call("GET /internal/ai-chat/:thread_id", { ...this.asAdmin, params: { thread_id: threadId } });
  }
}
