/**
 * A bar across the top of every tab whose session an impersonation link
 * signed in (see the impersonate page): who the admin is acting as, and a
 * button that ends it (signs out). The session is shared by all tabs of the
 * app, and so is its mark, so each tab decides from the current session
 * alone. StackProvider renders it, so host apps need no change.
 */
import { clearImpersonationMark, isImpersonationSession } from "@latchkey/js";
import { Suspense, useEffect, useState } from "react";
import { useStackApp } from "../provider.tsx";
import { useUser } from "../use-user.ts";
import { errorText } from "./parts.tsx";

export function ImpersonationBanner() {
  const app = useStackApp();
  // Decided after mount, so server-rendered HTML (which cannot know) and the first browser render agree.
  const [shown, setShown] = useState(false);
  useEffect(() => {
    let latest = 0;
    const decide = () => {
      const call = ++latest;
      void app.getRefreshToken().then((refreshToken) => {
        if (call === latest) setShown(isImpersonationSession(app.projectId, refreshToken));
      });
    };
    decide();
    // A sign-in or sign-out in any tab changes the shared session.
    const unsubscribe = app.onUserChange(decide);
    return () => {
      latest = -1;
      unsubscribe();
    };
  }, [app]);
  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <Banner />
    </Suspense>
  );
}

function Banner() {
  const app = useStackApp();
  const user = useUser();
  const [ending, setEnding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  if (!user) return null;
  const end = () => {
    setEnding(true);
    app
      .signOut()
      .then(() => clearImpersonationMark(app.projectId))
      .catch((caught: unknown) => (setError(errorText(caught)), setEnding(false)));
  };
  return (
    <div className="lk-root lk-impersonation-banner" role="status">
      <span>
        You are signed in as <strong>{user.displayName ?? user.primaryEmail ?? user.id}</strong> by impersonation.
      </span>
      {error ? <span className="lk-impersonation-error">{error}</span> : null}
      <button type="button" className="lk-button lk-button-secondary" disabled={ending} onClick={end}>
        {ending ? "Ending…" : "End impersonation"}
      </button>
    </div>
  );
}
