/**
 * The oauth-callback handler page: where the provider (through the server)
 * sends the browser back. It finishes the flow once (app.callOAuthCallback),
 * and the app then goes on to its next page; this page shows only the wait,
 * the error the flow ended with, or that there was nothing to finish. A
 * failed link (Connect in account settings) says so and leads back to where
 * it began, not to sign-in: the user is still signed in.
 */
import { KnownErrors, type OAuthFlowOfPage, type StackClientApp } from "@latchkey/js";
import { useEffect, useState } from "react";
import { useStackApp } from "../provider.tsx";
import { Alert, Card, FooterLink } from "./parts.tsx";

type Outcome = { status: "working" } | { status: "nothing" } | { status: "error"; message: string; flow: OAuthFlowOfPage | null };

interface Call {
  /** Read before the call: the SDK forgets the flow once it has taken the callback. */
  flow: OAuthFlowOfPage | null;
  finished: Promise<boolean>;
}

/**
 * One call per app and page: the SDK takes the callback's parameters on its first call, so a
 * second one (React's strict mode runs effects twice; a remount) would find nothing and say so.
 * Both renders wait on the first call instead.
 */
const calls = new WeakMap<StackClientApp, Call>();

function callOnce(app: StackClientApp): Call {
  let call = calls.get(app);
  if (!call) {
    const flow = app.oauthFlowOfCurrentPage();
    calls.set(app, (call = { flow, finished: app.callOAuthCallback() }));
  }
  return call;
}

export function OAuthCallback({ title = "Signing you in" }: { title?: string }) {
  const app = useStackApp();
  const [outcome, setOutcome] = useState<Outcome>({ status: "working" });
  useEffect(() => {
    let current = true;
    const { flow, finished } = callOnce(app);
    finished.then(
      // True: signed in, and the browser is on its way to the next page.
      (finished) => current && !finished && setOutcome({ status: "nothing" }),
      (error: unknown) => {
        // The SDK has sent the browser to the MFA page: keep waiting while it leaves.
        if (!current || error instanceof KnownErrors.MultiFactorAuthenticationRequired) return;
        setOutcome({ status: "error", message: error instanceof Error ? error.message : String(error), flow });
      },
    );
    return () => {
      current = false;
    };
  }, [app]);
  if (outcome.status === "error" && outcome.flow?.type === "link") {
    const back = outcome.flow.returnTo ?? app.urls.accountSettings;
    return (
      <Card title="Connecting the account failed">
        <Alert>{outcome.message}</Alert>
        <FooterLink href={back}>{samePage(back, app.urls.accountSettings) ? "Back to account settings" : "Go back"}</FooterLink>
      </Card>
    );
  }
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

/** Whether two same-origin URLs name the same page (whatever their queries). */
function samePage(url: string, page: string): boolean {
  return new URL(url, window.location.href).pathname === new URL(page, window.location.href).pathname;
}
