/** The forgot-password page: mails a reset link. It never says whether an account uses the address. */
import { useState } from "react";
import { useStackApp } from "../provider.tsx";
import { Alert, Card, Field, FooterLink, submitTo, useAction } from "./parts.tsx";

export function ForgotPassword({ title = "Reset your password" }: { title?: string }) {
  const app = useStackApp();
  const [email, setEmail] = useState("");
  const [sentTo, setSentTo] = useState<string | null>(null);
  const send = useAction(async () => {
    const result = await app.sendForgotPasswordEmail(email.trim());
    if (result.status === "error") return result.error.message;
    setSentTo(email.trim());
  });
  const onSubmit = submitTo(send.run);
  return (
    <Card title={title}>
      {sentTo ? (
        <p className="lk-success" role="status">
          If an account uses {sentTo}, we sent it a link to choose a new password. Check your inbox.
        </p>
      ) : (
        <form className="lk-form" onSubmit={onSubmit} noValidate>
          <Field label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <Alert>{send.error}</Alert>
          <button className="lk-button" type="submit" disabled={send.busy}>
            Send reset link
          </button>
        </form>
      )}
      <FooterLink href={app.urls.signIn}>Back to sign in</FooterLink>
    </Card>
  );
}
