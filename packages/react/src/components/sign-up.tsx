/** The sign-up page: e-mail, password and the password again. */
import { useState } from "react";
import { useStackApp } from "../provider.tsx";
import { Alert, Card, Field, submitTo, useAction } from "./parts.tsx";
import { withReturnTo } from "./sign-in.tsx";

/** SPEC §8: the words for a repeated password that differs. */
export const PASSWORDS_DO_NOT_MATCH = "Passwords do not match.";

export function SignUp({ title = "Create an account" }: { title?: string }) {
  const app = useStackApp();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const submit = useAction(async () => {
    if (password !== repeat) return PASSWORDS_DO_NOT_MATCH;
    const result = await app.signUpWithCredential({ email, password });
    if (result.status === "error") return result.error.message;
  });
  const onSubmit = submitTo(submit.run);
  return (
    <Card title={title}>
      <form className="lk-form" onSubmit={onSubmit} noValidate>
        <Field label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label="Password" type="password" autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <Field label="Repeat password" type="password" autoComplete="new-password" required value={repeat} onChange={(e) => setRepeat(e.target.value)} />
        <Alert>{submit.error}</Alert>
        <button className="lk-button" type="submit" disabled={submit.busy}>
          Sign up
        </button>
      </form>
      <p className="lk-muted">
        Already have an account?{" "}
        <a className="lk-link" href={withReturnTo(app.urls.signIn)}>
          Sign in
        </a>
      </p>
    </Card>
  );
}
