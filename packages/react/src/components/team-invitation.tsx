/**
 * The page an invitation link opens: names the team, and joins it on a click
 * (mail scanners that open links would otherwise spend the one-time code).
 * A signed-out visitor signs in or up first and comes back to this page.
 */
import type { CurrentUser, StackClientApp } from "@latchkey/js";
import { useEffect, useState, type MouseEvent } from "react";
import { useStackApp } from "../provider.tsx";
import { useUser } from "../use-user.ts";
import { Alert, Card, FooterLink, errorText, returningHere, useAction, useCodeFromUrl } from "./parts.tsx";

/** What the code says about its team: its name, the code's refusal (expired, used, unknown), or neither yet. */
type Details = { team: string } | { refusal: string } | null;

export function TeamInvitation({ title = "Team invitation" }: { title?: string }) {
  const app = useStackApp();
  const code = useCodeFromUrl();
  const user = useUser();
  const [details, setDetails] = useState<Details>(null);
  const signedIn = user !== null;

  useEffect(() => {
    if (!code) return;
    let current = true;
    detailsOf(app, code, signedIn).then(
      (found) => {
        if (current) setDetails(found);
      },
      (caught: unknown) => {
        if (current) setDetails({ refusal: errorText(caught) });
      },
    );
    return () => {
      current = false;
    };
  }, [app, code, signedIn]);

  if (!code) {
    return (
      <Card title={title}>
        <Alert>This link has no invitation code. Open the link from the e-mail again.</Alert>
      </Card>
    );
  }
  if (details && "refusal" in details) {
    return (
      <Card title={title}>
        <Alert>{details.refusal}</Alert>
        <FooterLink href={app.urls.home}>Go to the home page</FooterLink>
      </Card>
    );
  }
  const team = details?.team ?? null;
  return (
    <Card title={team ? `Join ${team}` : title}>
      <p className="lk-muted">{team ? `You have been invited to join the team ${team}.` : "You have been invited to join a team."}</p>
      {user ? <Accept user={user} code={code} team={team} /> : <SignInFirst />}
    </Card>
  );
}

async function detailsOf(app: StackClientApp, code: string, signedIn: boolean): Promise<Details> {
  try {
    const result = await app.getTeamInvitationDetails(code);
    return result.status === "ok" ? { team: result.data.teamDisplayName } : { refusal: result.error.message };
  } catch (caught) {
    if (signedIn) throw caught;
    // Only a signed-in user learns the team's name; whether the code still stands, anyone may ask.
    const check = await app.verifyTeamInvitationCode(code);
    return check.status === "error" ? { refusal: check.error.message } : null;
  }
}

function Accept({ user, code, team }: { user: CurrentUser; code: string; team: string | null }) {
  const app = useStackApp();
  const [joined, setJoined] = useState(false);
  const accept = useAction(async () => {
    const result = await app.acceptTeamInvitation(code);
    if (result.status === "error") return result.error.message;
    setJoined(true);
  });
  if (joined) {
    return (
      <>
        <p className="lk-success" role="status">
          {team ? `You joined ${team}.` : "You joined the team."}
        </p>
        <FooterLink href={app.urls.home}>Go to the home page</FooterLink>
      </>
    );
  }
  return (
    <div className="lk-form">
      <p className="lk-muted">Signed in as {user.primaryEmail ?? user.displayName ?? "a user without an e-mail"}.</p>
      <Alert>{accept.error}</Alert>
      <button className="lk-button" type="button" disabled={accept.busy} onClick={() => void accept.run()}>
        {team ? `Join ${team}` : "Accept invitation"}
      </button>
    </div>
  );
}

/** Links to sign in or up that bring the visitor back to this invitation afterwards. */
function SignInFirst() {
  const app = useStackApp();
  const goReturningHere = (url: string) => (event: MouseEvent) => {
    event.preventDefault();
    void app.redirectToUrl(returningHere(url));
  };
  return (
    <div className="lk-form">
      <p>Sign in to accept the invitation, or create an account first.</p>
      <span className="lk-row">
        <a className="lk-button" href={app.urls.signIn} onClick={goReturningHere(app.urls.signIn)}>
          Sign in
        </a>
        <a className="lk-button lk-button-secondary" href={app.urls.signUp} onClick={goReturningHere(app.urls.signUp)}>
          Sign up
        </a>
      </span>
    </div>
  );
}
