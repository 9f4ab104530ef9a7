/**
 * The second step of a sign-in for users with two-factor on: a first step
 * that met it left an attempt code in this tab and sent the browser here.
 * The code of the authenticator app is sent as soon as its 6th digit is in.
 */
import { HttpError, KnownErrors, StackClientApp, TOTP_DIGITS } from "@latchkey/js";
import { useState } from "react";
import { useStackApp } from "../provider.tsx";
import { Alert, Card, Field, FooterLink } from "./parts.tsx";

/**
 * `onSuccess`: called instead of going on (to after-sign-in, or after-sign-up
 * for a new user). `fullPage`: in a card with its heading (default).
 */
export function MFA({ fullPage = true, onSuccess, onCancel }: { fullPage?: boolean; onSuccess?: () => void; onCancel?: () => void }) {
  const body = <MfaForm onSuccess={onSuccess} onCancel={onCancel} />;
  return fullPage ? <Card title="Multi-Factor Authentication">{body}</Card> : <div className="lk-root">{body}</div>;
}

function MfaForm({ onSuccess, onCancel }: { onSuccess?: () => void; onCancel?: () => void }) {
  const app = useStackApp();
  const [attemptCode] = useState(() => StackClientApp.mfaAttemptCode());
  const [digits, setDigits] = useState("");
  const [state, setState] = useState<"idle" | "verifying" | "verified">("idle");
  const [error, setError] = useState<string | null>(null);
  const [expired, setExpired] = useState(false);

  if (expired) {
    return (
      <>
        <Alert>This sign-in has expired or was already used. Please sign in again.</Alert>
        <FooterLink href={app.urls.signIn}>Back to sign in</FooterLink>
      </>
    );
  }
  if (!attemptCode) {
    return (
      <>
        <Alert>Missing verification information. Please sign in again.</Alert>
        <FooterLink href={app.urls.signIn}>Back to sign in</FooterLink>
      </>
    );
  }

  const verify = async (totp: string) => {
    setState("verifying");
    setError(null);
    try {
      // The SDK clears the stored attempt code once it is spent.
      const result = await app.signInWithMfa(totp, attemptCode, { noRedirect: onSuccess !== undefined });
      if (result.status === "ok") {
        setState("verified");
        onSuccess?.();
        return;
      }
      if (result.error instanceof KnownErrors.InvalidTotpCode) setError("Invalid TOTP code");
      else setExpired(true);
    } catch (caught) {
      // Too many wrong codes: the server says how long to wait.
      setError(caught instanceof HttpError && caught.status === 429 ? caught.body : "Verification failed");
    }
    setDigits("");
    setState("idle");
  };

  const onChange = (typed: string) => {
    if (state !== "idle") return;
    const next = typed.replace(/\D/g, "").slice(0, TOTP_DIGITS);
    setDigits(next);
    if (next.length === TOTP_DIGITS) void verify(next);
  };

  return (
    <div className="lk-form">
      <p className="lk-muted">Enter the six-digit code from your authenticator app</p>
      <Field
        label="Six-digit code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={TOTP_DIGITS}
        placeholder="••••••"
        autoFocus
        // Read-only rather than disabled while verifying, so the focus stays for the next try.
        readOnly={state !== "idle"}
        value={digits}
        onChange={(e) => onChange(e.target.value)}
      />
      <Alert>{error}</Alert>
      {state === "idle" ? null : (
        <p className={state === "verified" ? "lk-success" : "lk-muted"} role="status">
          {state === "verifying" ? "Verifying..." : onSuccess ? "Verified!" : "Verified! Redirecting..."}
        </p>
      )}
      {onCancel ? (
        <button className="lk-link lk-link-button" type="button" onClick={onCancel}>
          Cancel
        </button>
      ) : (
        <FooterLink href={app.urls.signIn}>Back to sign in</FooterLink>
      )}
    </div>
  );
}
