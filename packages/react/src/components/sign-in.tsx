/**
 * The sign-in page: e-mail and password, and — when the project has magic
 * links on — a code mailed to the user, typed here or opened as a link; a
 * button for each OAuth provider the project has enabled, below them; a
 * passkey button when the project has passkeys on.
 */
import { useState, type FormEvent, type ReactNode } from "react";
import { useStackApp } from "../provider.tsx";
import { useProjectOnceLoaded } from "../use-project.ts";
import { OAuthButtonGroup } from "./oauth-button.tsx";
import { Alert, Card, Field, Separator, submitTo, useAction } from "./parts.tsx";
import { PasskeyButton } from "./passkey-button.tsx";
import { CHALLENGE_NOT_SOLVED, useTurnstile } from "./turnstile.tsx";

export interface SignInProps {
  title?: string;
  /** Show a Turnstile widget on the sign-in-code form (default: StackProvider's). */
  turnstileSiteKey?: string;
  /** The form shown first when the project offers both: a password, or a mailed code ("magic-link"). */
  firstTab?: "password" | "magic-link";
  /** Shown at the bottom of the page (e.g. the terms of service). */
  extraInfo?: ReactNode;
}

export function SignIn({ title = "Sign in", turnstileSiteKey, firstTab = "password", extraInfo }: SignInProps) {
  const app = useStackApp();
  const project = useProjectOnceLoaded();
  const codeOffered = project?.config.magicLinkEnabled ?? false;
  const passwordOffered = project?.config.credentialEnabled ?? true;
  const passkeyOffered = project?.config.passkeyEnabled ?? false;
  const [method, setMethod] = useState<"password" | "code" | null>(null);
  // A project that takes neither passwords nor codes signs its users in with the provider buttons alone.
  const onlyOAuth = !passwordOffered && !codeOffered && (project?.config.oauthProviders.length ?? 0) > 0;
  const preferred = firstTab === "magic-link" && codeOffered ? "code" : null;
  const shown = method ?? preferred ?? (passwordOffered ? "password" : codeOffered ? "code" : "password");
  return (
    <Card title={title}>
      {onlyOAuth ? null : shown === "password" ? <CredentialSignIn /> : <MagicLinkSignIn turnstileSiteKey={turnstileSiteKey} />}
      {codeOffered && passwordOffered ? (
        <button className="lk-link lk-link-button" type="button" onClick={() => setMethod(shown === "password" ? "code" : "password")}>
          {shown === "password" ? "Email me a sign-in code instead" : "Sign in with a password instead"}
        </button>
      ) : null}
      <OAuthButtonGroup type="sign-in" separated={!onlyOAuth} />
      {/* With no form above the provider buttons, the line goes between them and the passkey button. */}
      {onlyOAuth && passkeyOffered ? <Separator /> : null}
      {passkeyOffered ? <PasskeyButton /> : null}
      <p className="lk-muted">
        No account yet?{" "}
        <a className="lk-link" href={withReturnTo(app.urls.signUp)}>
          Sign up
        </a>
      </p>
      {extraInfo ? <div className="lk-muted">{extraInfo}</div> : null}
    </Card>
  );
}

/** The e-mail and password form alone (the sign-in page's first form), for a page of the app's own. */
export function CredentialSignIn() {
  const app = useStackApp();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const submit = useAction(async () => {
    const result = await app.signInWithCredential({ email, password });
    if (result.status === "error") return result.error.message;
  });
  const onSubmit = submitTo(submit.run);
  return (
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
      <a className="lk-link" href={app.urls.forgotPassword}>
        Forgot your password?
      </a>
    </form>
  );
}

/**
 * Sign-in with a mailed code alone (the sign-in page's other form): step one
 * mails the code and link; step two takes the 6 characters the e-mail shows.
 */
export function MagicLinkSignIn({ turnstileSiteKey }: { turnstileSiteKey?: string }) {
  const app = useStackApp();
  // A code to a new address signs someone up, so the server may ask for a challenge.
  const turnstile = useTurnstile("send_magic_link_email", turnstileSiteKey);
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState<{ email: string; nonce: string } | null>(null);
  const [typed, setTyped] = useState("");
  const send = useAction(async () => {
    const botChallenge = turnstile.challenge();
    if (botChallenge === null) return CHALLENGE_NOT_SOLVED;
    const result = await app.sendMagicLinkEmail(email.trim(), { botChallenge });
    if (botChallenge?.token) turnstile.used();
    if (result.status === "error") return result.error.message;
    setSent({ email: email.trim(), nonce: result.data.nonce });
  });
  const signIn = useAction(async () => {
    const result = await app.signInWithMagicLink(typed.trim() + sent!.nonce);
    if (result.status === "error") return result.error.message;
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    void (sent ? signIn.run() : send.run());
  };
  if (sent) {
    return (
      <form className="lk-form" onSubmit={onSubmit} noValidate>
        <p className="lk-muted" role="status">
          We sent a sign-in code and link to {sent.email}. Enter the code, or open the link.
        </p>
        <Field
          label="Sign-in code"
          autoComplete="one-time-code"
          inputMode="text"
          maxLength={6}
          required
          value={typed}
          onChange={(e) => setTyped(e.target.value.toUpperCase())}
        />
        <Alert>{signIn.error}</Alert>
        <button className="lk-button" type="submit" disabled={signIn.busy || typed.trim().length !== 6}>
          Sign in
        </button>
      </form>
    );
  }
  return (
    <form className="lk-form" onSubmit={onSubmit} noValidate>
      <Field label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      {turnstile.element}
      <Alert>{send.error}</Alert>
      <button className="lk-button" type="submit" disabled={send.busy}>
        Send sign-in code
      </button>
    </form>
  );
}

/** Carries the current `after_auth_return_to` over to the other auth page. */
export function withReturnTo(url: string): string {
  if (typeof window === "undefined") return url;
  const returnTo = new URL(window.location.href).searchParams.get("after_auth_return_to");
  return returnTo ? `${url}${url.includes("?") ? "&" : "?"}after_auth_return_to=${encodeURIComponent(returnTo)}` : url;
}
