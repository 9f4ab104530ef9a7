import { Link } from "react-router";
import { Page } from "../ui/page.tsx";

export function NotFound() {
  return (
    <main className="content content-narrow" id="main">
      <Page title="Page not found">
        <p>There is no dashboard page at this address.</p>
        <Link to="/">Go to the dashboard</Link>
      </Page>
    </main>
  );
}
