/**
 * The page a CLI's login link opens (`promptCliLogin` of @latchkey/js):
 * the signed-in user confirms with a click, and the CLI receives their
 * session. A signed-out visitor is sent to sign in (or, when the CLI came
 * with an anonymous session, to sign up as that user) and comes back here;
 * the click they already gave is remembered for this tab, so the page then
 * finishes on its own.
 */
import { KnownErrors, type CliConfirmError } from "@latchkey/js";
import { useCallback, useEffect, useState } from "react";
import { useStackApp } from "../provider.tsx";
import { useUser } from "../use-user.ts";
import { Alert, Card, errorText } from "./parts.tsx";

/** Session storage: the login code the visitor agreed to before signing in. */
export const CLI_AUTH_CONFIRMED_STORAGE_KEY = "stack-cli-auth-confirmed";

type State = { step: "idle" } | { step: "authorizing" } | { step: "completing" } | { step: "done" } | { step: "failed"; message: string };

function loginCodeFromUrl(): string | null {
  return typeof window === "undefined" ? null : new URL(window.location.href).searchParams.get("login_code");
}

function confirmedCode(): string | null {
  return typeof sessionStorage === "undefined" ? null : sessionStorage.getItem(CLI_AUTH_CONFIRMED_STORAGE_KEY);
}

/** `url` with `after_auth_return_to` set to this page, so signing in or up comes back here. */
function returningHere(url: string): string {
  const target = new URL(url, window.location.href);
  target.searchParams.set("after_auth_return_to", `${window.location.pathname}${window.location.search}`);
  return target.origin === window.location.origin ? `${target.pathname}${target.search}` : target.toString();
}

function refusalText(error: CliConfirmError): string {
  if (!(error instanceof KnownErrors.RestrictedUserNotAllowed)) return error.message;
  return error.details.restricted_reason.type === "email_not_verified"
    ? "Verify your e-mail address first, then try again."
    : "Your account may not sign in command line applications.";
}

export function CliAuthConfirmation() {
  const app = useStackApp();
  // Restricted users count as signed in here: sending them to sign in again would go round in circles.
  const user = useUser({ includeRestricted: true });
  const [loginCode] = useState(loginCodeFromUrl);
  const [state, setState] = useState<State>({ step: "idle" });

  const complete = useCallback(
    async (code: string) => {
      setState({ step: "completing" });
      try {
        const result = await app.confirmCliLogin(code);
        setState(result.status === "ok" ? { step: "done" } : { step: "failed", message: refusalText(result.error) });
      } catch (caught) {
        setState({ step: "failed", message: errorText(caught) });
      }
    },
    [app],
  );

  // Back from signing in after agreeing: finish what the click started.
  useEffect(() => {
    if (!user || !loginCode || confirmedCode() !== loginCode) return;
    sessionStorage.removeItem(CLI_AUTH_CONFIRMED_STORAGE_KEY);
    void complete(loginCode);
  }, [user, loginCode, complete]);

  const authorize = async (code: string) => {
    if (user) return complete(code);
    setState({ step: "authorizing" });
    try {
      const cliSession = await app.getCliLoginSessionState(code);
      if (cliSession.status === "error") return setState({ step: "failed", message: cliSession.error.message });
      const anonymous = cliSession.data === "anonymous";
      if (anonymous) {
        const claimed = await app.claimCliAnonSession(code);
        if (claimed.status === "error") return setState({ step: "failed", message: claimed.error.message });
      }
      sessionStorage.setItem(CLI_AUTH_CONFIRMED_STORAGE_KEY, code);
      // The CLI's anonymous user is signed in here now; the visitor goes on to create an account.
      await app.redirectToUrl(returningHere(anonymous ? app.urls.signUp : app.urls.signIn), { replace: true });
    } catch (caught) {
      setState({ step: "failed", message: errorText(caught) });
    }
  };

  if (!loginCode) {
    return (
      <Card title="Invalid CLI Authorization Link">
        <Alert>This link has no login code. Go back to your terminal and start the login again to get a new link.</Alert>
      </Card>
    );
  }
  switch (state.step) {
    case "completing":
      return (
        <Card title="Completing Authorization...">
          <p className="lk-muted" role="status">
            Handing your session to the command line application…
          </p>
        </Card>
      );
    case "done":
      return (
        <Card title="CLI Authorization Successful">
          <p className="lk-success" role="status">
            The command line application is now signed in as you. You can close this window and go back to your terminal.
          </p>
        </Card>
      );
    case "failed":
      return (
        <Card title="Authorization Failed">
          <Alert>Failed to authorize the CLI application: {state.message}</Alert>
          <button className="lk-button" type="button" onClick={() => setState({ step: "idle" })}>
            Try Again
          </button>
        </Card>
      );
    default:
      return (
        <Card title="Authorize CLI Application">
          <div className="lk-form">
            <p className="lk-muted">
              A command line application asks to sign in to your account. Authorize it to let it act as you
              {user ? ` (${user.primaryEmail ?? user.displayName ?? "signed in"})` : ""}.
            </p>
            <p className="lk-alert">
              <strong>Warning:</strong> only continue if you started this login yourself, from a tool you trust: it will get the same access
              to your account as this browser. If you did not, close this page. We never send these links by e-mail or any other way.
            </p>
            <button className="lk-button" type="button" disabled={state.step === "authorizing"} onClick={() => void authorize(loginCode)}>
              {state.step === "authorizing" ? "Authorizing..." : "Authorize"}
            </button>
          </div>
        </Card>
      );
  }
}
