/**
 * The page a verification link opens. Verifying takes a click: mail
 * scanners that open links would otherwise spend the one-time code.
 */
import { useState } from "react";
import { useStackApp } from "../provider.tsx";
import { Alert, Card, FooterLink, useAction, useCodeFromUrl } from "./parts.tsx";

export function EmailVerification({ title = "Verify your e-mail" }: { title?: string }) {
  const app = useStackApp();
  const code = useCodeFromUrl();
  const [verified, setVerified] = useState(false);
  const verify = useAction(async () => {
    const result = await app.verifyEmail(code!);
    if (result.status === "error") return result.error.message;
    setVerified(true);
  });
  if (!code) {
    return (
      <Card title={title}>
        <Alert>This link has no verification code. Open the link from the e-mail again.</Alert>
      </Card>
    );
  }
  return (
    <Card title={verified ? "E-mail verified" : title}>
      {verified ? (
        <p className="lk-success" role="status">
          Your e-mail address is verified.
        </p>
      ) : (
        <>
          <p className="lk-muted">Confirm that this e-mail address is yours.</p>
          <Alert>{verify.error}</Alert>
          <button className="lk-button" type="button" disabled={verify.busy} onClick={() => void verify.run()}>
            Verify e-mail
          </button>
        </>
      )}
      <FooterLink href={app.urls.home}>Go to the home page</FooterLink>
    </Card>
  );
}
