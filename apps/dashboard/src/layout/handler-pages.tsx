/**
 * The owner's own sign-in, sign-up and account pages, on /handler/*. This
 * module loads only there (the signed-in frame never needs it), and account
 * settings — with its two-factor setup and QR codes — loads only when opened,
 * so the sign-in page stays small.
 */
import { handlerPageOf, type HandlerPage } from "@latchkey/js";
import {
  CliAuthConfirmation,
  EmailVerification,
  ErrorPage,
  ForgotPassword,
  Impersonate,
  MagicLinkCallback,
  MFA,
  OAuthCallback,
  PasswordReset,
  SignIn,
  SignOut,
  SignUp,
  TeamInvitation,
  useStackApp,
} from "@latchkey/react";
import { lazy, Suspense, type ComponentType } from "react";
import { Link, useLocation } from "react-router";
import { Loading } from "../ui/states.tsx";

const AccountSettings = lazy(() => import("./account-settings.ts"));

const PAGES: Record<HandlerPage, ComponentType> = {
  signIn: SignIn,
  signUp: SignUp,
  signOut: SignOut,
  accountSettings: AccountSettings,
  emailVerification: EmailVerification,
  magicLinkCallback: MagicLinkCallback,
  oauthCallback: OAuthCallback,
  forgotPassword: ForgotPassword,
  passwordReset: PasswordReset,
  teamInvitation: TeamInvitation,
  mfa: MFA,
  cliAuthConfirm: CliAuthConfirmation,
  impersonate: Impersonate,
  error: () => <ErrorPage />,
};

/** Re-rendered on every move between the pages (the location is read here). */
export function HandlerPages() {
  const app = useStackApp();
  const { pathname } = useLocation();
  const page = handlerPageOf(app.urls, pathname);
  const Page = page ? PAGES[page] : null;
  return (
    <div className="handler-page">
      <p className="brand brand-large">Latchkey</p>
      {Page ? (
        <Suspense fallback={<Loading />}>
          <Page />
        </Suspense>
      ) : (
        <div className="state state-empty">
          <h1>Page not found</h1>
          <p>There is no page at {pathname}.</p>
          <Link to="/">Go to your projects</Link>
        </div>
      )}
    </div>
  );
}
