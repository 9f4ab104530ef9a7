import { aiChatEndpoints } from "@latchkey/shared";
import { defineRoute } from "../../../../../http/route.ts";

/** GET /internal/ai-chat: whether to offer the assistant (the dashboard asks before showing it). */
export default [defineRoute(aiChatEndpoints.getAiChatStatus, ({ services }) => ({ body: { enabled: services.chatCompletions !== null } }))];
