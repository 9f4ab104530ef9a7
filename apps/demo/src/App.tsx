/**
 * The demo's pages, picked from window.location.pathname (no router
 * library): a home page, a page only signed-in users may see, one that
 * tells whether the user's GitHub account is connected, and
 * Latchkey's own pages under /handler/ (team invitations among them). The
 * header shows the team switcher and the user button.
 */
import {
  AuthPage,
  CredentialSignIn,
  CredentialSignUp,
  MagicLinkSignIn,
  MessageCard,
  PurchaseButton,
  SelectedTeamSwitcher,
  StackHandler,
  StackTheme,
  TeamSwitcher,
  UserAvatar,
  UserButton,
  useConnectedAccount,
  useUser,
} from "@latchkey/react";
import { useState, type ReactNode } from "react";

export function App() {
  const path = window.location.pathname;
  if (path.startsWith("/handler/")) {
    return (
      <Layout>
        <StackHandler />
      </Layout>
    );
  }
  const pages: Record<string, () => ReactNode> = {
    "/": () => <Home />,
    "/protected": () => <Protected />,
    "/github": () => <GitHub />,
    "/components": () => <Components />,
  };
  const page = (pages[path] ?? (() => <NotFound />))();
  return <Layout userButton>{page}</Layout>;
}

function Home() {
  const user = useUser();
  return (
    <section className="card">
      <h1>Welcome</h1>
      {user ? <p>Signed in as {user.primaryEmail}</p> : <p>You are not signed in yet.</p>}
      {user ? <p>Selected team: {user.selectedTeam?.displayName ?? "none"}</p> : null}
      <p>
        <a href="/protected">Go to the protected page</a>
      </p>
    </section>
  );
}

function Protected() {
  // Signed-out visitors are sent to the sign-in page, and come back here after.
  const user = useUser({ or: "redirect" });
  return (
    <section className="card">
      <h1>Protected</h1>
      <p>Protected page for {user.primaryEmail}</p>
    </section>
  );
}

function GitHub() {
  const user = useUser({ or: "redirect" });
  // The app would call GitHub's API with connection.getAccessToken(); the demo only says whether it could.
  const connection = useConnectedAccount(user, "github");
  return (
    <section className="card">
      <h1>GitHub</h1>
      <p>{connection ? "Your GitHub account is connected." : "No GitHub account is connected."}</p>
    </section>
  );
}

/**
 * The building blocks an app composes its own pages from, one at a time
 * (`?show=`), under a theme: the forms alone, the sign-in or sign-up page by
 * type, a message card, a purchase button (`&product=`), and the signed-in
 * user's avatar and team switcher.
 */
function Components() {
  const show = new URLSearchParams(window.location.search).get("show");
  const [clicked, setClicked] = useState("nothing");
  const shown: Record<string, ReactNode> = {
    "credential-sign-in": <CredentialSignIn />,
    "credential-sign-up": <CredentialSignUp noPasswordRepeat />,
    "magic-link-sign-in": <MagicLinkSignIn />,
    "sign-in-page": <AuthPage type="sign-in" firstTab="magic-link" />,
    "sign-up-page": <AuthPage type="sign-up" extraInfo="By signing up you accept the terms." />,
    "message-card": (
      <MessageCard
        title="Almost there"
        primaryButtonText="Continue"
        primaryAction={() => setClicked("continue")}
        secondaryButtonText="Back"
        secondaryAction={() => setClicked("back")}
      >
        <p>Clicked: {clicked}</p>
      </MessageCard>
    ),
    "purchase-button": (
      <PurchaseButton productId={new URLSearchParams(window.location.search).get("product") ?? "pro"}>Buy Pro</PurchaseButton>
    ),
  };
  return (
    <StackTheme theme={{ light: { primary: "rgb(190, 24, 93)", primaryForeground: "rgb(255, 255, 255)" }, radius: "2px" }}>
      <section className="card">
        <h1>Components</h1>
        <p>
          <UserAvatar size={48} border /> <TeamSwitcher />
        </p>
        {show ? shown[show] : null}
      </section>
    </StackTheme>
  );
}

function NotFound() {
  return (
    <section className="card">
      <h1>Not found</h1>
      <p>
        <a href="/">Back home</a>
      </p>
    </section>
  );
}

function Layout({ userButton = false, children }: { userButton?: boolean; children: ReactNode }) {
  return (
    <>
      <header className="topbar">
        <a className="brand" href="/">
          Latchkey demo
        </a>
        {userButton && (
          <span className="topbar-actions">
            <SelectedTeamSwitcher />
            <UserButton />
          </span>
        )}
      </header>
      <main>{children}</main>
    </>
  );
}
