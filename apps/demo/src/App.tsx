/**
 * The demo's pages, picked from window.location.pathname (no router
 * library): a home page, a page only signed-in users may see, one that
 * tells whether the user's GitHub account is connected, and
 * Latchkey's own pages under /handler/ (team invitations among them). The
 * header shows the team switcher and the user button.
 */
import { SelectedTeamSwitcher, StackHandler, UserButton, useConnectedAccount, useUser } from "@latchkey/react";
import type { ReactNode } from "react";

export function App() {
  const path = window.location.pathname;
  if (path.startsWith("/handler/")) {
    return (
      <Layout>
        <StackHandler />
      </Layout>
    );
  }
  const page = path === "/protected" ? <Protected /> : path === "/github" ? <GitHub /> : path === "/" ? <Home /> : <NotFound />;
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
