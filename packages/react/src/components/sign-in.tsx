/** The sign-in page: e-mail and password. */
import { useState, type FormEvent } from "react";
import { useStackApp } from "../provider.tsx";
import { Alert, Card, Field, useAction } from "./parts.tsx";

export function SignIn({ title = "Sign in" }: { title?: string }) {
  const app = useStackApp();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const submit = useAction(async () => {
    const result = await app.signInWithCredential({ email, password });
    if (result.status === "error") return result.error.message;
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void submit.run();
  };
  return (
    <Card title={title}>
      <form className="lk-form" onSubmit={onSubmit} noValidate>
        <Field label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          required
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <Alert>{submit.error}</Alert>
        <button className="lk-button" type="submit" disabled={submit.busy}>
          Sign in
        </button>
      </form>
      <p className="lk-muted">
        No account yet?{" "}
        <a className="lk-link" href={withReturnTo(app.urls.signUp)}>
          Sign up
        </a>
      </p>
    </Card>
  );
}

/** Carries the current `after_auth_return_to` over to the other auth page. */
export function withReturnTo(url: string): string {
  if (typeof window === "undefined") return url;
  const returnTo = new URL(window.location.href).searchParams.get("after_auth_return_to");
  return returnTo ? `${url}${url.includes("?") ? "&" : "?"}after_auth_return_to=${encodeURIComponent(returnTo)}` : url;
}
