import { aiChatEndpoints } from "@latchkey/shared";
import { tenancyOf } from "../../../../../http/auth.ts";
import { defineRoute } from "../../../../../http/route.ts";
import { appendThreadMessage, listThreadMessages } from "../../../domain/messages.ts";
import { replyToThread } from "../../../domain/reply.ts";

export default [
  defineRoute(aiChatEndpoints.listAiChatMessages, async ({ auth, params, services }) => ({
    body: { messages: await listThreadMessages(services.db, tenancyOf(auth), params.thread_id) },
  })),
  defineRoute(aiChatEndpoints.saveAiChatMessage, async ({ auth, params, body, services }) => {
    await appendThreadMessage(services.db, tenancyOf(auth), params.thread_id, body.message, services.clock.date());
    return { body: {} };
  }),
  defineRoute(aiChatEndpoints.replyAiChat, async ({ auth, params, body, services }) => ({
    body: {
      content: await replyToThread(services.db, services.chatCompletions, tenancyOf(auth), {
        context: body.context_type,
        threadId: params.thread_id,
        messages: body.messages,
      }),
    },
  })),
];
