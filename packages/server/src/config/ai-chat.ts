/** The chat-completions service of the dashboard's AI assistant (LATCHKEY_AI_*), checked at start. */
import type { ChatCompletionsSettings } from "../integrations/chat-completions.ts";
import { StartupError } from "../process/startup-error.ts";

/** A reply waits at most this long for the model: long answers (a whole template) take a while. */
const AI_CHAT_TIMEOUT_MILLIS = 60_000;

/** Null when LATCHKEY_AI_BASE_URL is unset; the model and key without a base URL are a mistake. */
export function aiChatFromEnv(env: NodeJS.ProcessEnv): ChatCompletionsSettings | null {
  const baseUrl = env.LATCHKEY_AI_BASE_URL?.trim();
  const model = env.LATCHKEY_AI_MODEL?.trim();
  const apiKey = env.LATCHKEY_AI_API_KEY || null;
  if (!baseUrl) {
    if (model || apiKey)
      throw new StartupError("LATCHKEY_AI_MODEL and LATCHKEY_AI_API_KEY need LATCHKEY_AI_BASE_URL: set it too, or unset them.");
    return null;
  }
  let url: URL | null = null;
  try {
    url = new URL(baseUrl);
  } catch {
    // answered below
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:")) {
    throw new StartupError(
      `LATCHKEY_AI_BASE_URL must be an http:// or https:// address, not ${JSON.stringify(baseUrl)}: the chat-completions service's base, e.g. https://api.openai.com/v1.`,
    );
  }
  if (!model) throw new StartupError("LATCHKEY_AI_BASE_URL is set but LATCHKEY_AI_MODEL is not: name the model to ask, e.g. gpt-4o.");
  return { baseUrl: baseUrl.replace(/\/+$/, ""), apiKey, model, timeoutMillis: AI_CHAT_TIMEOUT_MILLIS };
}
