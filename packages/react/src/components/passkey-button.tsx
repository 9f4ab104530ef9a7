/** The sign-in page's passkey button, and how a passkey ceremony's refusal reads. */
import { KnownErrors } from "@latchkey/js";
import { useStackApp } from "../provider.tsx";
import { Alert, errorText, useAction } from "./parts.tsx";

/** Signs in with a passkey the browser offers; then the app goes to its after-sign-in page. */
export function PasskeyButton() {
  const app = useStackApp();
  const signIn = useAction(async () => {
    const result = await app.signInWithPasskey();
    if (result.status === "error") return passkeyErrorText(result.error);
  });
  return (
    <div className="lk-form">
      <Alert>{signIn.error}</Alert>
      <button className="lk-button lk-button-secondary" type="button" disabled={signIn.busy} onClick={() => void signIn.run()}>
        Sign in with passkey
      </button>
    </div>
  );
}

/** The browser's refusals in plain words (its own messages are written for developers); the server's as it wrote them. */
export function passkeyErrorText(error: unknown): string {
  if (error instanceof KnownErrors.PasskeyWebAuthnError) {
    switch (error.details.code) {
      case "NotAllowedError":
      case "AbortError":
        return "The passkey prompt was closed or timed out. Try again when you are ready.";
      case "InvalidStateError":
        return "This device already holds a passkey for your account.";
      case "NotSupportedError":
        return "This browser or device cannot use passkeys.";
      default:
        return error.message;
    }
  }
  return errorText(error);
}
