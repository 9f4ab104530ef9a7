/**
 * Account settings: two-factor with an authenticator app. The secret is made
 * in the browser and shown only while enrolling (as a QR code and as a key to
 * type); it is saved only once the app shows a code that matches it.
 */
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS, TOTP_SECRET_BYTES, type CurrentUser } from "@latchkey/js";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { useRef, useState, type FormEvent } from "react";
import { useProject } from "../use-project.ts";
import { Alert, ConfirmedAction, Field, Section, useAction, useFocusAfterRender } from "./parts.tsx";

interface Enrolment {
  secret: Uint8Array<ArrayBuffer>;
  totp: TOTP;
  qrCodeUrl: string;
}

export function MfaSection({ user }: { user: CurrentUser }) {
  const project = useProject();
  const [enrolment, setEnrolment] = useState<Enrolment | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const start = useAction(async () => {
    setDone(null);
    const secret = crypto.getRandomValues(new Uint8Array(TOTP_SECRET_BYTES));
    const totp = new TOTP({
      issuer: project.displayName,
      label: user.primaryEmail ?? user.id,
      algorithm: "SHA1",
      digits: TOTP_DIGITS,
      period: TOTP_PERIOD_SECONDS,
      secret: new Secret({ buffer: secret.buffer }),
    });
    setEnrolment({ secret, totp, qrCodeUrl: await QRCode.toDataURL(totp.toString()) });
  });
  const disable = useAction(async () => {
    await user.update({ totpMultiFactorSecret: null });
    setDone("Two-factor authentication is now disabled.");
  });
  const enabled = user.isMultiFactorRequired;
  // When the set-up form closes, its focused field disappears: focus moves to the section's button, not to the page.
  const afterEnrolment = useRef<HTMLDivElement>(null);
  const focusAfterRender = useFocusAfterRender();
  const closeEnrolment = () => {
    setEnrolment(null);
    focusAfterRender(() => afterEnrolment.current?.querySelector("button"));
  };
  return (
    <Section title="Two-factor authentication">
      <p className="lk-muted">
        {enabled
          ? "Two-factor authentication is currently enabled: signing in also asks for a code from your authenticator app."
          : "Two-factor authentication is currently disabled."}
      </p>
      {done ? (
        <p className="lk-success" role="status">
          {done}
        </p>
      ) : null}
      <Alert>{start.error ?? disable.error}</Alert>
      <div ref={afterEnrolment}>
        {enrolment ? (
          <EnrolmentForm
            user={user}
            enrolment={enrolment}
            onEnabled={() => {
              closeEnrolment();
              setDone("Two-factor authentication is now enabled.");
            }}
            onCancel={closeEnrolment}
          />
        ) : enabled ? (
          <ConfirmedAction
            label="Disable two-factor authentication…"
            confirmLabel="Disable two-factor authentication"
            busy={disable.busy}
            onConfirm={() => void disable.run()}
          />
        ) : (
          <span className="lk-row">
            <button className="lk-button" type="button" disabled={start.busy} onClick={() => void start.run()}>
              Enable two-factor authentication
            </button>
          </span>
        )}
      </div>
    </Section>
  );
}

function EnrolmentForm({
  user,
  enrolment,
  onEnabled,
  onCancel,
}: {
  user: CurrentUser;
  enrolment: Enrolment;
  onEnabled(): void;
  onCancel(): void;
}) {
  const [code, setCode] = useState("");
  const save = useAction(async (typed: string) => {
    // The server takes any secret: checking a code here first proves the app holds this one.
    if (enrolment.totp.validate({ token: typed, window: 1 }) === null) {
      setCode("");
      return "Incorrect code. Please try again.";
    }
    await user.update({ totpMultiFactorSecret: enrolment.secret });
    onEnabled();
  });
  const onChange = (typed: string) => {
    if (save.busy) return;
    const next = typed.replace(/\D/g, "").slice(0, TOTP_DIGITS);
    setCode(next);
    if (next.length === TOTP_DIGITS) void save.run(next);
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (code.length === TOTP_DIGITS) void save.run(code);
  };
  return (
    <form className="lk-form" onSubmit={onSubmit} aria-label="Set up two-factor authentication">
      <p className="lk-muted">Scan this QR code with your authenticator app:</p>
      <img src={enrolment.qrCodeUrl} width={200} height={200} alt="TOTP multi-factor authentication QR code" />
      <p className="lk-muted">
        Or enter this setup key in the app: <code className="lk-secret">{enrolment.totp.secret.base32}</code>
      </p>
      <Field
        label="Then, enter the six-digit code from your app"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        maxLength={TOTP_DIGITS}
        placeholder="123456"
        autoFocus
        readOnly={save.busy}
        value={code}
        onChange={(e) => onChange(e.target.value)}
      />
      <Alert>{save.error}</Alert>
      <span className="lk-row">
        <button className="lk-button" type="submit" disabled={save.busy || code.length !== TOTP_DIGITS}>
          Enable
        </button>
        <button className="lk-button lk-button-secondary" type="button" onClick={onCancel}>
          Cancel
        </button>
      </span>
    </form>
  );
}
