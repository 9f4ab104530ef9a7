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
  Onboarding,
  PasswordReset,
  SignIn,
  SignOut,
  SignUp,
  TeamInvitation,
  useStackApp,
} from "@latchkey/react";
import { lazy, Suspense, type ComponentType, type MouseEvent } from "react";
import { Link, useLocation, useNavigate } from "react-router";
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
  onboarding: Onboarding,
  impersonate: Impersonate,
  error: () => <ErrorPage />,
};

/** Re-rendered on every move between the pages (the location is read here). */
export function HandlerPages() {
  const app = useStackApp();
  const { pathname } = useLocation();
  const page = handlerPageOf(app.urls, pathname);
  const Page = page ? PAGES[page] : null;
  const navigate = useNavigate();
  // The pages' own links ("Sign up", "Forgot password?") are plain anchors, as any host app needs them; here they move
  // through the router instead of reloading the dashboard.
  const followInApp = (event: MouseEvent<HTMLDivElement>) => {
    const link = (event.target as HTMLElement).closest("a");
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    if ((link.target && link.target !== "_self") || link.hasAttribute("download")) return;
    const url = new URL(link.href, window.location.href);
    if (url.origin !== window.location.origin) return;
    event.preventDefault();
    void navigate(url.pathname + url.search + url.hash);
  };
  return (
    // A delegate for the links inside (Enter on a focused link is a click too); the links stay ordinary anchors.
    <div className="handler-page" onClick={followInApp}>
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
