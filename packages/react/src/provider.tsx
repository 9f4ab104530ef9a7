/** The app the components talk to, given once at the top of the tree. */
import type { StackClientApp } from "@latchkey/js";
import { createContext, useContext, useInsertionEffect, type ReactNode } from "react";
import { ImpersonationBanner } from "./components/impersonation-banner.tsx";
import { STYLE_ELEMENT_ID, STYLES } from "./styles.ts";

const StackAppContext = createContext<StackClientApp | null>(null);
const TurnstileSiteKeyContext = createContext<string | null>(null);

export interface StackProviderProps {
  app: StackClientApp;
  /**
   * A Cloudflare Turnstile site key: the sign-up and sign-in-code forms then
   * show its widget (the app loads Turnstile's script itself).
   */
  turnstileSiteKey?: string;
  /**
   * Shows <ImpersonationBanner/> above the app in tabs signed in by
   * impersonation (default true); pass false to place it yourself.
   */
  impersonationBanner?: boolean;
  children?: ReactNode;
}

export function StackProvider({ app, turnstileSiteKey, impersonationBanner = true, children }: StackProviderProps) {
  useInsertionEffect(() => {
    if (document.getElementById(STYLE_ELEMENT_ID)) return;
    const style = document.createElement("style");
    style.id = STYLE_ELEMENT_ID;
    style.textContent = STYLES;
    document.head.prepend(style);
  }, []);
  return (
    <StackAppContext.Provider value={app}>
      <TurnstileSiteKeyContext.Provider value={turnstileSiteKey || null}>
        {impersonationBanner ? <ImpersonationBanner /> : null}
        {children}
      </TurnstileSiteKeyContext.Provider>
    </StackAppContext.Provider>
  );
}

/** The Turnstile site key of the nearest StackProvider (null: none). */
export function useTurnstileSiteKey(): string | null {
  return useContext(TurnstileSiteKeyContext);
}

/** The app of the nearest StackProvider. */
export function useStackApp<App extends StackClientApp = StackClientApp>(): App {
  const app = useContext(StackAppContext);
  if (!app) throw new Error("useStackApp must be used inside <StackProvider app={…}>.");
  return app as App;
}
