/**
 * The sign-up page: e-mail, password and (unless `noPasswordRepeat`) the
 * password again; below them, a button for each OAuth provider the project
 * has enabled.
 */
import { useState, type ReactNode } from "react";
import { useStackApp } from "../provider.tsx";
import { useNewPassword } from "./new-password.tsx";
import { OAuthButtonGroup } from "./oauth-button.tsx";
import { Alert, Card, Field, submitTo, useAction } from "./parts.tsx";
import { withReturnTo } from "./sign-in.tsx";
import { CHALLENGE_NOT_SOLVED, useTurnstile } from "./turnstile.tsx";

export { PASSWORDS_DO_NOT_MATCH } from "./new-password.tsx";

export interface SignUpProps {
  title?: string;
  /** Show a Turnstile widget (default: StackProvider's). */
  turnstileSiteKey?: string;
  /** Ask for the password once. */
  noPasswordRepeat?: boolean;
  /** Shown at the bottom of the page (e.g. the terms of service). */
  extraInfo?: ReactNode;
}

export function SignUp({ title = "Create an account", turnstileSiteKey, noPasswordRepeat, extraInfo }: SignUpProps) {
  const app = useStackApp();
  return (
    <Card title={title}>
      <CredentialSignUp turnstileSiteKey={turnstileSiteKey} noPasswordRepeat={noPasswordRepeat} />
      <OAuthButtonGroup type="sign-up" />
      <p className="lk-muted">
        Already have an account?{" "}
        <a className="lk-link" href={withReturnTo(app.urls.signIn)}>
          Sign in
        </a>
      </p>
      {extraInfo ? <div className="lk-muted">{extraInfo}</div> : null}
    </Card>
  );
}

/** The e-mail and password sign-up form alone (the sign-up page's form), for a page of the app's own. */
export function CredentialSignUp({
  turnstileSiteKey,
  noPasswordRepeat = false,
}: Pick<SignUpProps, "turnstileSiteKey" | "noPasswordRepeat">) {
  const app = useStackApp();
  const turnstile = useTurnstile("sign_up_with_credential", turnstileSiteKey);
  const [email, setEmail] = useState("");
  const { password, mismatch, fields } = useNewPassword("Password", { repeat: !noPasswordRepeat });
  const submit = useAction(async () => {
    if (mismatch) return mismatch;
    const botChallenge = turnstile.challenge();
    if (botChallenge === null) return CHALLENGE_NOT_SOLVED;
    const result = await app.signUpWithCredential({ email, password, botChallenge });
    if (botChallenge?.token) turnstile.used();
    if (result.status === "error") return result.error.message;
  });
  const onSubmit = submitTo(submit.run);
  return (
    <form className="lk-form" onSubmit={onSubmit} noValidate>
      <Field label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      {fields}
      {turnstile.element}
      <Alert>{submit.error}</Alert>
      <button className="lk-button" type="submit" disabled={submit.busy}>
        Sign up
      </button>
    </form>
  );
}
