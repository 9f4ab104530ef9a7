/**
 * The page an admin's impersonation link opens (`/handler/impersonate#refresh_token=…`):
 * the tokens ride in the URL fragment, which never reaches a server or its
 * logs, and leave the address bar before anything else happens. The page
 * signs this app in with them, marks the tab (sessionStorage) so
 * <ImpersonationBanner/> shows, and goes home.
 */
import { IMPERSONATION_STORAGE_KEY, impersonationTokensOf } from "@latchkey/js";
import { useEffect, useRef, useState } from "react";
import { useStackApp } from "../provider.tsx";
import { Alert, Card, errorText, FooterLink } from "./parts.tsx";

export function Impersonate() {
  const app = useStackApp();
  const [error, setError] = useState<string | null>(null);
  // Once per page, also when StrictMode runs effects twice (the fragment is gone by the second run).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const tokens = impersonationTokensOf(window.location.hash);
    window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
    if (!tokens) {
      setError("This impersonation link carries no session. Start the impersonation from the dashboard again.");
      return;
    }
    app
      .signInWithTokens(tokens)
      .then(() => {
        sessionStorage.setItem(IMPERSONATION_STORAGE_KEY, "1");
        return app.redirectToHandler("home", { replace: true });
      })
      .catch((caught: unknown) => setError(errorText(caught)));
  }, [app]);
  return (
    <Card title="Impersonating">
      {error ? (
        <>
          <Alert>{error}</Alert>
          <FooterLink href={app.urls.home}>Go to the home page</FooterLink>
        </>
      ) : (
        <p className="lk-muted">Signing in as the user…</p>
      )}
    </Card>
  );
}
