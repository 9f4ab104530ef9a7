import { defineKnownError } from "./base.ts";

/** The operator has connected no chat-completions service (LATCHKEY_AI_BASE_URL, LATCHKEY_AI_MODEL). */
export const AiChatNotConfigured = defineKnownError("AI_CHAT_NOT_CONFIGURED", 501, () => ({
  message:
    "The AI assistant is not set up on this server. Its operator can connect an OpenAI-compatible chat-completions service with LATCHKEY_AI_BASE_URL and LATCHKEY_AI_MODEL.",
}));

/** The chat-completions service failed, refused or answered out of its protocol; `reason` names which, never a secret. */
export const AiChatProviderError = defineKnownError("AI_CHAT_PROVIDER_ERROR", 502, (reason: string) => ({
  message: `The AI assistant's service did not answer usefully (${reason}). Try again later.`,
  details: { reason },
}));
