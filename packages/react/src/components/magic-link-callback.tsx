/**
 * The page a sign-in link opens. Signing in takes a click, so a mail
 * scanner that opens the link does not spend the one-time code.
 */
import { useStackApp } from "../provider.tsx";
import { Alert, Card, FooterLink, useAction, useCodeFromUrl } from "./parts.tsx";

export function MagicLinkCallback({ title = "Sign in" }: { title?: string }) {
  const app = useStackApp();
  const code = useCodeFromUrl();
  const signIn = useAction(async () => {
    const result = await app.signInWithMagicLink(code!);
    if (result.status === "error") return result.error.message;
  });
  return (
    <Card title={title}>
      {code ? (
        <>
          <p className="lk-muted">Continue to sign in with the link from your e-mail.</p>
          <Alert>{signIn.error}</Alert>
          <button className="lk-button" type="button" disabled={signIn.busy} onClick={() => void signIn.run()}>
            Sign in
          </button>
        </>
      ) : (
        <Alert>This link has no sign-in code. Open the link from the e-mail again.</Alert>
      )}
      <FooterLink href={app.urls.signIn}>Back to sign in</FooterLink>
    </Card>
  );
}
