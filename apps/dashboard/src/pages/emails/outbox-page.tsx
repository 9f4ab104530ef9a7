/**
 * The dev outbox: mail the project sent while no SMTP server existed, so it
 * was never delivered. Each is shown as rendered, its links opening in a new
 * tab (a sign-in link opened here signs that user in).
 */
import { useSearchParams } from "react-router";
import { useAdminApp } from "../../lib/owned-projects.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { Card, Page } from "../../ui/page.tsx";
import { Empty, Loaded, RefreshButton } from "../../ui/states.tsx";
import { EmailList } from "./email-list.tsx";
import { EmailPreviewFrame } from "./email-preview-frame.tsx";
import { formatTime } from "./emails-sent-page.tsx";
import "./emails.css";

export default function OutboxPage() {
  const app = useAdminApp();
  const [params] = useSearchParams();
  const outbox = useLoad(() => app.listOutboxEmails(), [app]);
  return (
    <Page
      title="Outbox"
      description="Without an SMTP server, mail is kept here instead of being delivered: the last 100 messages of the past 24 hours. A project in production mode keeps none: its users' sign-in links are not for reading here."
      actions={<RefreshButton load={outbox} />}
    >
      <Loaded load={outbox}>
        {(list) => {
          const current = list.find((m) => m.id === params.get("id")) ?? list[0];
          if (!current)
            return (
              <Card>
                <Empty>
                  <p>The outbox is empty. Mail your project sends without an SMTP server shows up here.</p>
                </Empty>
              </Card>
            );
          return (
            <div className="email-split">
              <Card>
                <EmailList
                  label="Outbox mail"
                  items={list.map((m) => ({ id: m.id, name: m.subject, note: `${m.to.join(", ")} · ${formatTime(m.sentAt)}` }))}
                  selected={current.id}
                />
              </Card>
              <Card title={current.subject} description={`To ${current.to.join(", ")} · ${formatTime(current.sentAt)}`}>
                <EmailPreviewFrame html={current.html} title={`E-mail: ${current.subject}`} openLinks />
              </Card>
            </div>
          );
        }}
      </Loaded>
    </Page>
  );
}
