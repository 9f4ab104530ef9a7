import { StackProvider } from "@latchkey/react";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { applyStoredTheme } from "./lib/theme.ts";
import { router } from "./router.tsx";
import { setRedirectNavigator, stackApp } from "./stack-app.ts";
import "./styles.css";

applyStoredTheme();
setRedirectNavigator((to) => void router.navigate(to));

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <StackProvider app={stackApp}>
      <RouterProvider router={router} />
    </StackProvider>
  </StrictMode>,
);
