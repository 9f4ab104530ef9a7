/** The sign-out page: signs out as soon as it shows, then goes to the after-sign-out page. */
import { useEffect, useRef, useState } from "react";
import { useStackApp } from "../provider.tsx";
import { Alert, Card, errorText } from "./parts.tsx";

export function SignOut() {
  const app = useStackApp();
  const [error, setError] = useState<string | null>(null);
  // Once per page, also when StrictMode runs effects twice.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    app.signOut().catch((caught: unknown) => setError(errorText(caught)));
  }, [app]);
  return <Card title="Signing out">{error ? <Alert>{error}</Alert> : <p className="lk-muted">One moment…</p>}</Card>;
}
