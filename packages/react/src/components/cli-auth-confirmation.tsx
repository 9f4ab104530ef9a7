/**
 * The page a CLI's login link opens (`promptCliLogin` of @latchkey/js):
 * the signed-in user confirms with a click, and the CLI receives their
 * session. A signed-out visitor is sent to sign in (or, when the CLI came
 * with an anonymous session, to sign up as that user) and comes back here;
 * the click they already gave is remembered for this tab, so the page then
 * finishes on its own. The remembered click is forgotten as soon as the
 * flow ends, whichever way, and when the tab opens another login's link.
 *
 * One card stays on the page through every step: its heading takes the
 * focus when the step changes (the button that was clicked is gone), and one
 * live region that stays mounted announces the progress.
 */
import { KnownErrors, type CliConfirmError } from "@latchkey/js";
import { useCallback, useEffect, useRef, useState } from "react";
import { useStackApp } from "../provider.tsx";
import { useUser } from "../use-user.ts";
import { Alert, Card, errorText, returningHere } from "./parts.tsx";

/** Session storage: the login code the visitor agreed to before signing in. */
export const CLI_AUTH_CONFIRMED_STORAGE_KEY = "stack-cli-auth-confirmed";

type State = { step: "idle" } | { step: "authorizing" } | { step: "completing" } | { step: "done" } | { step: "failed"; message: string };

const TITLES: Record<State["step"], string> = {
  idle: "Authorize CLI Application",
  authorizing: "Authorize CLI Application",
  completing: "Completing Authorization...",
  done: "CLI Authorization Successful",
  failed: "Authorization Failed",
};

function loginCodeFromUrl(): string | null {
  return typeof window === "undefined" ? null : new URL(window.location.href).searchParams.get("login_code");
}

function confirmedCode(): string | null {
  return typeof sessionStorage === "undefined" ? null : sessionStorage.getItem(CLI_AUTH_CONFIRMED_STORAGE_KEY);
}

function forgetConfirmation(): void {
  if (typeof sessionStorage !== "undefined") sessionStorage.removeItem(CLI_AUTH_CONFIRMED_STORAGE_KEY);
}

function refusalText(error: CliConfirmError): string {
  if (!(error instanceof KnownErrors.RestrictedUserNotAllowed)) return error.message;
  return error.details.restricted_reason.type === "email_not_verified"
    ? "Verify your e-mail address first, then try again."
    : "Your account is not allowed to sign in to command line applications.";
}

export function CliAuthConfirmation() {
  const app = useStackApp();
  // Restricted users count as signed in here: sending them to sign in again would go round in circles.
  const user = useUser({ includeRestricted: true });
  const [loginCode] = useState(loginCodeFromUrl);
  const [state, setState] = useState<State>({ step: "idle" });
  const heading = useRef<HTMLHeadingElement>(null);
  const shownStep = useRef(state.step);

  useEffect(() => {
    if (shownStep.current === state.step) return;
    shownStep.current = state.step;
    heading.current?.focus();
  }, [state.step]);

  const fail = useCallback((message: string) => {
    forgetConfirmation();
    setState({ step: "failed", message });
  }, []);

  const complete = useCallback(
    async (code: string) => {
      forgetConfirmation();
      setState({ step: "completing" });
      try {
        const result = await app.confirmCliLogin(code);
        if (result.status === "ok") setState({ step: "done" });
        else fail(refusalText(result.error));
      } catch (caught) {
        fail(errorText(caught));
      }
    },
    [app, fail],
  );

  // Back from signing in after agreeing: finish what the click started. A click given for another login is void here.
  useEffect(() => {
    const confirmed = confirmedCode();
    if (confirmed === null) return;
    if (confirmed !== loginCode) return forgetConfirmation();
    if (user && loginCode) void complete(loginCode);
  }, [user, loginCode, complete]);

  const authorize = async (code: string) => {
    if (user) return complete(code);
    setState({ step: "authorizing" });
    try {
      const cliSession = await app.getCliLoginSessionState(code);
      if (cliSession.status === "error") return fail(cliSession.error.message);
      const anonymous = cliSession.data === "anonymous";
      if (anonymous) {
        const claimed = await app.claimCliAnonSession(code);
        if (claimed.status === "error") return fail(claimed.error.message);
      }
      sessionStorage.setItem(CLI_AUTH_CONFIRMED_STORAGE_KEY, code);
      // Signed in as the CLI's anonymous user now (when it had one): the visitor goes on to create their account.
      await app.redirectToUrl(returningHere(anonymous ? app.urls.signUp : app.urls.signIn), { replace: true });
    } catch (caught) {
      fail(errorText(caught));
    }
  };

  if (!loginCode) {
    return (
      <Card title="Invalid CLI Authorization Link">
        <Alert>This link has no login code. Go back to your terminal and start the login again to get a new link.</Alert>
      </Card>
    );
  }
  const status =
    state.step === "completing"
      ? "Handing your session to the command line application…"
      : state.step === "done"
        ? "The command line application is now signed in as you. You can close this window and go back to your terminal."
        : "";
  return (
    <Card title={TITLES[state.step]} headingRef={heading}>
      <div role="status" className={state.step === "done" ? "lk-success" : status ? "lk-muted" : undefined}>
        {status}
      </div>
      {state.step === "failed" && (
        <div className="lk-form">
          <Alert>Failed to authorize the CLI application: {state.message}</Alert>
          <button className="lk-button" type="button" onClick={() => setState({ step: "idle" })}>
            Try Again
          </button>
        </div>
      )}
      {(state.step === "idle" || state.step === "authorizing") && (
        <div className="lk-form">
          {user ? (
            <p className="lk-muted">
              A command line application asks to sign in to your account ({user.primaryEmail ?? user.displayName ?? "signed in"}). Authorize
              it to let it act as you.
            </p>
          ) : (
            <p className="lk-muted">
              A command line application asks to sign in. After you authorize it, you will be asked to sign in or to create an account; the
              command line application then gets access to that account.
            </p>
          )}
          <p className="lk-alert">
            <strong>Warning:</strong> only continue if you started this login yourself, from a tool you trust: it will get the same access
            to {user ? "your account" : "the account"} as this browser. If you did not, close this page. We never send these links by e-mail
            or any other way.
          </p>
          <button className="lk-button" type="button" disabled={state.step === "authorizing"} onClick={() => void authorize(loginCode)}>
            {state.step === "authorizing" ? "Authorizing..." : "Authorize"}
          </button>
        </div>
      )}
    </Card>
  );
}
