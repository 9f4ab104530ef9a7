/** One-off mail to the project's users: write a draft in TSX with a live preview, then send it to everyone or to chosen users. */
import { useState } from "react";
import { useNavigate, useSearchParams } from "react-router";
import { useAdminApp } from "../../lib/owned-projects.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { Card, Page } from "../../ui/page.tsx";
import { Empty, Loaded } from "../../ui/states.tsx";
import { DraftEditor } from "./draft-editor.tsx";
import { EmailList } from "./email-list.tsx";
import "./emails.css";
import { NewNameDialog } from "./new-name-dialog.tsx";

export default function EmailDraftsPage() {
  const app = useAdminApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const drafts = useLoad(() => Promise.all([app.listEmailDrafts(), app.listEmailThemes()]), [app]);
  const [creating, setCreating] = useState(false);
  return (
    <Page
      title="Drafts"
      description="Mail you write once and send to your users: announcements, changes, news."
      actions={
        <button type="button" className="button" onClick={() => setCreating(true)}>
          New draft
        </button>
      }
    >
      <NewNameDialog
        open={creating}
        title="New draft"
        label="Draft name"
        hint="Only you see the name; the subject is part of the draft."
        onClose={() => setCreating(false)}
        create={async (name) => {
          const { id } = await app.createEmailDraft({ displayName: name });
          drafts.reload();
          navigate(`?id=${id}`);
        }}
      />
      <Loaded load={drafts}>
        {([list, themes]) => {
          const current = list.find((d) => d.id === params.get("id")) ?? list[0];
          if (!current)
            return (
              <Card>
                <Empty>
                  <p>No drafts yet. Create one to write to your users.</p>
                </Empty>
              </Card>
            );
          return (
            <div className="email-split">
              <Card>
                <EmailList
                  label="Drafts"
                  items={list.map((d) => ({
                    id: d.id,
                    name: d.displayName,
                    note: d.sentAt ? `Sent ${d.sentAt.toLocaleDateString()}` : "Not sent",
                  }))}
                  selected={current.id}
                />
              </Card>
              <Card>
                <DraftEditor
                  key={current.id}
                  app={app}
                  draft={current}
                  themes={themes}
                  onSaved={drafts.reload}
                  onDeleted={() => {
                    drafts.reload();
                    navigate("?");
                  }}
                />
              </Card>
            </div>
          );
        }}
      </Loaded>
    </Page>
  );
}
