/**
 * Where a signed-in user who may not use the app yet is sent
 * (`redirectToOnboarding`): a user whose e-mail is not verified can have the
 * link mailed again. Anyone else moves on: the signed-out to sign-in, a user
 * with nothing left to do to the after-sign-in page.
 */
import { useEffect, useState } from "react";
import { useStackApp } from "../provider.tsx";
import { useUser } from "../use-user.ts";
import { Alert, Card, useAction } from "./parts.tsx";

export function Onboarding() {
  const app = useStackApp();
  const user = useUser({ includeRestricted: true });
  const waiting = user?.restrictedReason?.type === "email_not_verified";
  const [sent, setSent] = useState(false);
  const send = useAction(async () => {
    const refused = await user!.sendVerificationEmail();
    if (refused) return refused.message;
    setSent(true);
  });
  useEffect(() => {
    if (user === null) void app.redirectToSignIn({ replace: true });
    else if (!waiting) {
      // The access token may still carry the restriction lifted meanwhile: a new one, then on.
      void user._internalSession.refresh().then(() => app.redirectToAfterSignIn({ replace: true }));
    }
  }, [app, user, waiting]);
  if (!user || !waiting) return null;
  return (
    <Card title="Verify your e-mail">
      <p className="lk-muted">To continue, open the link we sent to {user.primaryEmail}. Then come back here or reload this page.</p>
      {sent ? (
        <p className="lk-success" role="status">
          We sent a new link to {user.primaryEmail}.
        </p>
      ) : null}
      <Alert>{send.error}</Alert>
      <button className="lk-button lk-button-secondary" type="button" disabled={send.busy} onClick={() => void send.run()}>
        Send the link again
      </button>
    </Card>
  );
}
