/**
 * The Cloudflare Turnstile widget on the forms that can create an account,
 * shown when the app gives a site key (on StackProvider or the component).
 * Loading Turnstile's script (challenges.cloudflare.com/turnstile/v0/api.js)
 * is the app's choice: this renders the widget's container and asks
 * `window.turnstile` to fill it once the script is there. Its token goes to
 * the server as a visible challenge.
 */
import type { BotChallenge } from "@latchkey/js";
import { useCallback, useEffect, useRef, useState, type ReactNode } from "react";
import { useTurnstileSiteKey } from "../provider.tsx";

/** The part of Turnstile's browser API the widget uses. */
export interface TurnstileApi {
  render(
    container: HTMLElement,
    options: {
      sitekey: string;
      action: string;
      callback: (token: string) => void;
      "expired-callback": () => void;
      "error-callback": () => void;
    },
  ): string | null | undefined;
  reset(widgetId: string): void;
  remove(widgetId: string): void;
}

export type TurnstileAction = "sign_up_with_credential" | "send_magic_link_email";

/** The script may still be loading when the form mounts: look again this often, for this long. */
const SCRIPT_POLL_MILLIS = 200;
const SCRIPT_POLL_ATTEMPTS = 50;

export const CHALLENGE_NOT_SOLVED = "Complete the check below first.";

function turnstileApi(): TurnstileApi | null {
  if (typeof window === "undefined") return null;
  return (window as { turnstile?: TurnstileApi }).turnstile ?? null;
}

export interface Turnstile {
  /** The widget's container, or null without a site key. */
  element: ReactNode;
  /**
   * What to send: undefined without a site key (nothing changes), the solved
   * token, `unavailable` when the script never arrived, or null while the
   * widget waits to be solved.
   */
  challenge(): BotChallenge | undefined | null;
  /** A token is good for one request: call after sending it, so the widget gives a new one. */
  used(): void;
}

export function useTurnstile(action: TurnstileAction, siteKeyProp?: string): Turnstile {
  const providerKey = useTurnstileSiteKey();
  const siteKey = siteKeyProp || providerKey;
  const container = useRef<HTMLDivElement>(null);
  const widgetId = useRef<string | null>(null);
  const [token, setToken] = useState<string | null>(null);

  useEffect(() => {
    if (!siteKey) return;
    let attempts = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const render = () => {
      const api = turnstileApi();
      if (!api || !container.current) {
        if (++attempts < SCRIPT_POLL_ATTEMPTS) timer = setTimeout(render, SCRIPT_POLL_MILLIS);
        return;
      }
      widgetId.current =
        api.render(container.current, {
          sitekey: siteKey,
          action,
          callback: (solved) => setToken(solved),
          "expired-callback": () => setToken(null),
          "error-callback": () => setToken(null),
        }) ?? null;
    };
    render();
    return () => {
      clearTimeout(timer);
      if (widgetId.current !== null) turnstileApi()?.remove(widgetId.current);
      widgetId.current = null;
      setToken(null);
    };
  }, [siteKey, action]);

  const challenge = useCallback((): BotChallenge | undefined | null => {
    if (!siteKey) return undefined;
    if (token) return { token, phase: "visible" };
    return widgetId.current === null && !turnstileApi() ? { unavailable: true } : null;
  }, [siteKey, token]);

  const used = useCallback(() => {
    setToken(null);
    if (widgetId.current !== null) turnstileApi()?.reset(widgetId.current);
  }, []);

  return {
    element: siteKey ? <div className="lk-turnstile" data-lk-turnstile={action} ref={container} /> : null,
    challenge,
    used,
  };
}
