/**
 * Mount on every path under the handler base (default `/handler/*`): shows
 * the page the URL names.
 */
import { handlerPageOf } from "@latchkey/js";
import type { ReactNode } from "react";
import { useStackApp } from "../provider.tsx";
import { AccountSettings } from "./account-settings.tsx";
import { CliAuthConfirmation } from "./cli-auth-confirmation.tsx";
import { EmailVerification } from "./email-verification.tsx";
import { ErrorPage } from "./error-page.tsx";
import { Impersonate } from "./impersonate.tsx";
import { ForgotPassword } from "./forgot-password.tsx";
import { MagicLinkCallback } from "./magic-link-callback.tsx";
import { MFA } from "./mfa-page.tsx";
import { OAuthCallback } from "./oauth-callback.tsx";
import { Onboarding } from "./onboarding.tsx";
import { Card } from "./parts.tsx";
import { PasswordReset } from "./password-reset.tsx";
import { SignIn } from "./sign-in.tsx";
import { SignOut } from "./sign-out.tsx";
import { SignUp } from "./sign-up.tsx";
import { TeamInvitation } from "./team-invitation.tsx";

export function StackHandler({ pathname }: { /** Defaults to the browser's current path. */ pathname?: string }) {
  const app = useStackApp();
  const path = pathname ?? (typeof window === "undefined" ? "/" : window.location.pathname);
  const pages: Partial<Record<NonNullable<ReturnType<typeof handlerPageOf>>, ReactNode>> = {
    signIn: <SignIn />,
    signUp: <SignUp />,
    signOut: <SignOut />,
    accountSettings: <AccountSettings />,
    emailVerification: <EmailVerification />,
    magicLinkCallback: <MagicLinkCallback />,
    oauthCallback: <OAuthCallback />,
    forgotPassword: <ForgotPassword />,
    passwordReset: <PasswordReset />,
    teamInvitation: <TeamInvitation />,
    mfa: <MFA />,
    cliAuthConfirm: <CliAuthConfirmation />,
    onboarding: <Onboarding />,
    impersonate: <Impersonate />,
    error: <ErrorPage />,
  };
  const page = handlerPageOf(app.urls, path);
  return (
    (page && pages[page]) ?? (
      <Card title="Page not found">
        <p className="lk-muted">There is no page at {path}.</p>
        <a className="lk-link" href={app.urls.home}>
          Go to the home page
        </a>
      </Card>
    )
  );
}
