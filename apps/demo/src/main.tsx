import { StackProvider } from "@latchkey/react";
import { StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import { stackApp } from "./app.ts";
import "./styles.css";

const turnstileSiteKey = import.meta.env.VITE_LATCHKEY_TURNSTILE_SITE_KEY || undefined;
if (turnstileSiteKey) {
  // The host app loads Turnstile's script; the forms render their widgets once it is there.
  const script = document.createElement("script");
  script.src = "https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit";
  script.async = true;
  document.head.append(script);
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <StackProvider app={stackApp} turnstileSiteKey={turnstileSiteKey}>
      <Suspense fallback={<p className="loading">Loading…</p>}>
        <App />
      </Suspense>
    </StackProvider>
  </StrictMode>,
);
