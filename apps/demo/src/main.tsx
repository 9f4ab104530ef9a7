import { StackProvider } from "@latchkey/react";
import { StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import { stackApp } from "./app.ts";
import "./styles.css";

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <StackProvider app={stackApp}>
      <Suspense fallback={<p className="loading">Loading…</p>}>
        <App />
      </Suspense>
    </StackProvider>
  </StrictMode>,
);
