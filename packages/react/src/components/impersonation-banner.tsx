/**
 * A bar across the top of a tab signed in by impersonation (see the
 * impersonate page): who the admin is acting as, and a button that ends it
 * (signs out). StackProvider renders it, so host apps need no change; it
 * shows nothing in tabs that are not impersonating.
 */
import { IMPERSONATION_STORAGE_KEY } from "@latchkey/js";
import { Suspense, useEffect, useState } from "react";
import { useStackApp } from "../provider.tsx";
import { useUser } from "../use-user.ts";
import { errorText } from "./parts.tsx";

function impersonating(): boolean {
  return typeof window !== "undefined" && sessionStorage.getItem(IMPERSONATION_STORAGE_KEY) !== null;
}

export function ImpersonationBanner() {
  // Read after mount, so server-rendered HTML (which cannot know) and the first browser render agree.
  const [shown, setShown] = useState(false);
  useEffect(() => setShown(impersonating()), []);
  if (!shown) return null;
  return (
    <Suspense fallback={null}>
      <Banner onEnded={() => setShown(false)} />
    </Suspense>
  );
}

function Banner({ onEnded }: { onEnded: () => void }) {
  const app = useStackApp();
  const user = useUser();
  const [ending, setEnding] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    // Signed out some other way: the impersonation is over.
    if (user === null) {
      sessionStorage.removeItem(IMPERSONATION_STORAGE_KEY);
      onEnded();
    }
  }, [user, onEnded]);
  if (!user) return null;
  const end = () => {
    setEnding(true);
    sessionStorage.removeItem(IMPERSONATION_STORAGE_KEY);
    app.signOut().catch((caught: unknown) => (setError(errorText(caught)), setEnding(false)));
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
