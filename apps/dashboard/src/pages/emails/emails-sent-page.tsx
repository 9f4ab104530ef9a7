/** The project's recent mail: to whom, what, whether it went out, and why not. */
import type { SentEmail } from "@latchkey/js";
import { Link } from "react-router";
import { useAdminApp } from "../../lib/owned-projects.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { Card, Page } from "../../ui/page.tsx";
import { Empty, Loaded, RefreshButton } from "../../ui/states.tsx";
import "./emails.css";

const STATUS_WORDS: Record<SentEmail["status"], string> = {
  sent: "Sent",
  failed: "Failed",
  queued: "Waiting",
  outbox: "In the outbox",
  skipped: "Skipped",
};

export function formatTime(date: Date): string {
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

export default function EmailsSentPage() {
  const app = useAdminApp();
  // Only outbox mail that still has its body can be read (not past its day, nor of a project in production mode).
  const sent = useLoad(() => Promise.all([app.listSentEmails(), app.listOutboxEmails().then((l) => new Set(l.map((m) => m.id)))]), [app]);
  return (
    <Page
      title="Sent e-mail"
      description="The last 500 messages, newest first. Delivered and failed mail keeps no body (it may hold live sign-in codes); outbox mail keeps it for a day, except in production mode."
      actions={<RefreshButton load={sent} />}
    >
      <Card>
        <Loaded load={sent}>
          {([list, readable]) =>
            list.length === 0 ? (
              <Empty>
                <p>No mail yet. Verification, sign-in and invitation mail will be listed here.</p>
              </Empty>
            ) : (
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">To</th>
                    <th scope="col">Subject</th>
                    <th scope="col">Status</th>
                    <th scope="col">Time</th>
                  </tr>
                </thead>
                <tbody>
                  {list.map((mail) => (
                    <tr key={mail.id}>
                      <td>{mail.to.join(", ")}</td>
                      <td>
                        {mail.subject}
                        {mail.error ? <div className="delivery-error">{mail.error}</div> : null}
                      </td>
                      <td>
                        <span className={`status-badge status-${mail.status}`}>{STATUS_WORDS[mail.status]}</span>
                        {readable.has(mail.id) ? (
                          <Link className="status-link" to={`../outbox?id=${mail.id}`} relative="path">
                            Read it
                          </Link>
                        ) : null}
                      </td>
                      <td className="muted nowrap">{mail.sentAt ? formatTime(mail.sentAt) : "—"}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )
          }
        </Loaded>
      </Card>
    </Page>
  );
}
