/**
 * The page an admin's impersonation link opens (`/handler/impersonate#refresh_token=…`):
 * the tokens ride in the URL fragment, which never reaches a server or its
 * logs, and leave the address bar before anything else happens. The page
 * signs this app in with them, marks the session as an impersonation (for
 * every tab: <ImpersonationBanner/>), and goes home. When the browser holds
 * someone's own session of this app, it is replaced only after the admin
 * confirms, since every tab of the app loses it.
 */
import { impersonationTokensOf, isImpersonationSession, markImpersonation, type ImpersonationTokens } from "@latchkey/js";
import { useCallback, useEffect, useRef, useState } from "react";
import { useStackApp } from "../provider.tsx";
import { Alert, Card, errorText, FooterLink } from "./parts.tsx";

type Step = { kind: "starting" } | { kind: "confirm"; tokens: ImpersonationTokens; signedInAs: string } | { kind: "error"; error: string };

export function Impersonate() {
  const app = useStackApp();
  const [step, setStep] = useState<Step>({ kind: "starting" });

  const signIn = useCallback(
    (tokens: ImpersonationTokens) => {
      setStep({ kind: "starting" });
      // Marked first, so other tabs that see the new session see it marked.
      markImpersonation(app.projectId, tokens.refreshToken);
      app
        .signInWithTokens(tokens)
        .then(() => app.redirectToHandler("home", { replace: true }))
        .catch((caught: unknown) => setStep({ kind: "error", error: errorText(caught) }));
    },
    [app],
  );

  // Once per page, also when StrictMode runs effects twice (the fragment is gone by the second run).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const tokens = impersonationTokensOf(window.location.hash);
    window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
    if (!tokens) {
      setStep({ kind: "error", error: "This impersonation link carries no session. Start the impersonation from the dashboard again." });
      return;
    }
    void (async () => {
      const current = await app.getRefreshToken();
      if (current === null || current === tokens.refreshToken || isImpersonationSession(app.projectId, current)) return signIn(tokens);
      const user = await app.getUser().catch(() => null);
      if (!user) return signIn(tokens);
      setStep({ kind: "confirm", tokens, signedInAs: user.displayName ?? user.primaryEmail ?? user.id });
    })().catch((caught: unknown) => setStep({ kind: "error", error: errorText(caught) }));
  }, [app, signIn]);

  return (
    <Card title="Impersonating">
      {step.kind === "error" ? (
        <>
          <Alert>{step.error}</Alert>
          <FooterLink href={app.urls.home}>Go to the home page</FooterLink>
        </>
      ) : step.kind === "confirm" ? (
        <>
          <p>
            This browser is signed in to this app as <strong>{step.signedInAs}</strong>. Impersonating replaces that session in every tab of
            this app; you will need to sign in again afterwards.
          </p>
          <button type="button" className="lk-button" onClick={() => signIn(step.tokens)}>
            Replace my session and impersonate
          </button>
          <FooterLink href={app.urls.home}>Keep my session</FooterLink>
        </>
      ) : (
        <p className="lk-muted">Signing in as the user…</p>
      )}
    </Card>
  );
}
