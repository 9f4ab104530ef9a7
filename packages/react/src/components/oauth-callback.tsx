/**
 * The oauth-callback handler page: where the provider (through the server)
 * sends the browser back. It finishes the flow once (app.callOAuthCallback),
 * and the app then goes on to its next page; this page shows only the wait,
 * the error the flow ended with, or that there was nothing to finish.
 */
import { KnownErrors, type StackClientApp } from "@latchkey/js";
import { useEffect, useState } from "react";
import { useStackApp } from "../provider.tsx";
import { Alert, Card, FooterLink } from "./parts.tsx";

type Outcome = { status: "working" } | { status: "nothing" } | { status: "error"; message: string };

/**
 * One call per app and page: the SDK takes the callback's parameters on its first call, so a
 * second one (React's strict mode runs effects twice; a remount) would find nothing and say so.
 * Both renders wait on the first call instead.
 */
const calls = new WeakMap<StackClientApp, Promise<boolean>>();

function callOnce(app: StackClientApp): Promise<boolean> {
  let call = calls.get(app);
  if (!call) calls.set(app, (call = app.callOAuthCallback()));
  return call;
}

export function OAuthCallback({ title = "Signing you in" }: { title?: string }) {
  const app = useStackApp();
  const [outcome, setOutcome] = useState<Outcome>({ status: "working" });
  useEffect(() => {
    let current = true;
    callOnce(app).then(
      // True: signed in, and the browser is on its way to the next page.
      (finished) => current && !finished && setOutcome({ status: "nothing" }),
      (error: unknown) => {
        // The SDK has sent the browser to the MFA page: keep waiting while it leaves.
        if (!current || error instanceof KnownErrors.MultiFactorAuthenticationRequired) return;
        setOutcome({ status: "error", message: error instanceof Error ? error.message : String(error) });
      },
    );
    return () => {
      current = false;
    };
  }, [app]);
  if (outcome.status === "error") {
    return (
      <Card title="Sign-in failed">
        <Alert>{outcome.message}</Alert>
        <FooterLink href={app.urls.signIn}>Back to sign in</FooterLink>
      </Card>
    );
  }
  if (outcome.status === "nothing") {
    return (
      <Card title={title}>
        <p className="lk-muted">
          There is no sign-in to finish on this page: it was already finished, or it was started in another browser. Sign in again if you
          are not signed in.
        </p>
        <FooterLink href={app.urls.signIn}>Go to sign in</FooterLink>
      </Card>
    );
  }
  return (
    <Card title={title}>
      <p className="lk-muted" role="status">
        Signing you in…
      </p>
    </Card>
  );
}
