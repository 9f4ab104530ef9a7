/** Shows an error the app sent the user to (`?errorCode=…&message=…`), with a way back. */
import { useStackApp } from "../provider.tsx";
import { Card } from "./parts.tsx";

export function ErrorPage({ message }: { message?: string }) {
  const app = useStackApp();
  const params = typeof window === "undefined" ? new URLSearchParams() : new URLSearchParams(window.location.search);
  const text = message ?? params.get("message") ?? "Something went wrong.";
  const code = params.get("errorCode");
  return (
    <Card title="Something went wrong">
      <p role="alert">{text}</p>
      {code ? <p className="lk-muted">Error code: {code}</p> : null}
      <p>
        <a className="lk-link" href={app.urls.home}>
          Go to the home page
        </a>
      </p>
    </Card>
  );
}
