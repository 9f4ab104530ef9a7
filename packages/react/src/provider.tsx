/** The app the components talk to, given once at the top of the tree. */
import type { StackClientApp } from "@latchkey/js";
import { createContext, useContext, useInsertionEffect, type ReactNode } from "react";
import { STYLE_ELEMENT_ID, STYLES } from "./styles.ts";

const StackAppContext = createContext<StackClientApp | null>(null);

export interface StackProviderProps {
  app: StackClientApp;
  children?: ReactNode;
}

export function StackProvider({ app, children }: StackProviderProps) {
  useInsertionEffect(() => {
    if (document.getElementById(STYLE_ELEMENT_ID)) return;
    const style = document.createElement("style");
    style.id = STYLE_ELEMENT_ID;
    style.textContent = STYLES;
    document.head.prepend(style);
  }, []);
  return <StackAppContext.Provider value={app}>{children}</StackAppContext.Provider>;
}

/** The app of the nearest StackProvider. */
export function useStackApp<App extends StackClientApp = StackClientApp>(): App {
  const app = useContext(StackAppContext);
  if (!app) throw new Error("useStackApp must be used inside <StackProvider app={…}>.");
  return app as App;
}
