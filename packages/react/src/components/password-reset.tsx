/** The page a reset link opens: checks the link, then takes the new password twice. */
import { useEffect, useState } from "react";
import { useStackApp } from "../provider.tsx";
import { useNewPassword } from "./new-password.tsx";
import { Alert, Card, FooterLink, errorText, submitTo, useAction, useCodeFromUrl } from "./parts.tsx";

type LinkState = "checking" | "valid" | { invalid: string };

export function PasswordReset({ title = "Choose a new password" }: { title?: string }) {
  const app = useStackApp();
  const code = useCodeFromUrl();
  const [link, setLink] = useState<LinkState>("checking");
  const { password, mismatch, fields } = useNewPassword("New password");
  const [done, setDone] = useState(false);

  useEffect(() => {
    if (!code) return setLink({ invalid: "This link has no reset code. Open the link from the e-mail again." });
    let current = true;
    app.verifyPasswordResetCode(code).then(
      (result) => current && setLink(result.status === "ok" ? "valid" : { invalid: result.error.message }),
      (caught: unknown) => current && setLink({ invalid: errorText(caught) }),
    );
    return () => {
      current = false;
    };
  }, [app, code]);

  const submit = useAction(async () => {
    if (mismatch) return mismatch;
    const result = await app.resetPassword({ code: code!, password });
    if (result.status === "error") return result.error.message;
    setDone(true);
  });
  const onSubmit = submitTo(submit.run);

  const signIn = <FooterLink href={done ? app.urls.signIn : app.urls.forgotPassword}>{done ? "Sign in" : "Ask for a new link"}</FooterLink>;
  if (done) {
    return (
      <Card title="Password changed">
        <p className="lk-success" role="status">
          Your password was changed, and every device was signed out. Sign in with your new password.
        </p>
        {signIn}
      </Card>
    );
  }
  if (link === "checking") {
    return (
      <Card title={title}>
        <p className="lk-muted">Checking your link…</p>
      </Card>
    );
  }
  if (link !== "valid") {
    return (
      <Card title="This link does not work">
        <Alert>{link.invalid}</Alert>
        {signIn}
      </Card>
    );
  }
  return (
    <Card title={title}>
      <form className="lk-form" onSubmit={onSubmit} noValidate>
        {fields}
        <Alert>{submit.error}</Alert>
        <button className="lk-button" type="submit" disabled={submit.busy}>
          Change password
        </button>
      </form>
    </Card>
  );
}
