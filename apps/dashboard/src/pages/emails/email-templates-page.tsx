/** The project's e-mail templates and themes: pick one, edit its TSX with a live preview, save; new and delete for templates. */
import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { useAdminApp } from "../../lib/owned-projects.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { Card, Page } from "../../ui/page.tsx";
import { Empty, Loaded } from "../../ui/states.tsx";
import { EmailList } from "./email-list.tsx";
import "./emails.css";
import { NewNameDialog } from "./new-name-dialog.tsx";
import { TemplateEditor } from "./template-editor.tsx";
import { ThemeEditor } from "./theme-editor.tsx";

export default function EmailTemplatesPage() {
  const app = useAdminApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const tab = params.get("tab") === "themes" ? "themes" : "templates";
  const selected = params.get("id");
  const templates = useLoad(() => app.listEmailTemplates(), [app]);
  const themes = useLoad(() => app.listEmailThemes(), [app]);
  const [creating, setCreating] = useState(false);
  const open = (id: string) => navigate(`?${new URLSearchParams({ ...(tab === "themes" ? { tab } : {}), id }).toString()}`);
  return (
    <Page
      title="Templates"
      description="The mail your project sends is written in TSX. Edit it here; the preview is rendered by the server as it will be sent."
      actions={
        <button type="button" className="button" onClick={() => setCreating(true)}>
          {tab === "themes" ? "New theme" : "New template"}
        </button>
      }
    >
      <NewNameDialog
        open={creating}
        title={tab === "themes" ? "New theme" : "New template"}
        label={tab === "themes" ? "Theme name" : "Template name"}
        hint={tab === "themes" ? "It starts as a copy of the light theme." : "New templates need the project's own SMTP server."}
        onClose={() => setCreating(false)}
        create={async (name) => {
          const { id } = tab === "themes" ? await app.createEmailTheme(name) : await app.createEmailTemplate(name);
          (tab === "themes" ? themes : templates).reload();
          open(id);
        }}
      />
      <nav className="email-tabs" aria-label="Templates or themes">
        <Link to="?" aria-current={tab === "templates" ? "page" : undefined}>
          Templates
        </Link>
        <Link to="?tab=themes" aria-current={tab === "themes" ? "page" : undefined}>
          Themes
        </Link>
      </nav>
      {tab === "templates" ? (
        <Loaded load={templates}>
          {(list) => {
            const current = list.find((t) => t.id === selected) ?? list[0];
            if (!current)
              return (
                <Card>
                  <Empty>
                    <p>No templates yet. Create one to start writing mail.</p>
                  </Empty>
                </Card>
              );
            return (
              <div className="email-split">
                <Card>
                  <EmailList label="Templates" items={list.map((t) => ({ id: t.id, name: t.displayName }))} selected={current.id} />
                </Card>
                <Card>
                  <TemplateEditor
                    key={current.id}
                    app={app}
                    template={current}
                    onSaved={templates.reload}
                    onDeleted={() => {
                      templates.reload();
                      navigate("?");
                    }}
                  />
                </Card>
              </div>
            );
          }}
        </Loaded>
      ) : (
        <Loaded load={themes}>
          {(list) => {
            const current = list.find((t) => t.id === selected) ?? list[0];
            if (!current)
              return (
                <Card>
                  <Empty>
                    <p>No themes yet.</p>
                  </Empty>
                </Card>
              );
            return (
              <div className="email-split">
                <Card>
                  <EmailList label="Themes" items={list.map((t) => ({ id: t.id, name: t.displayName }))} selected={current.id} />
                </Card>
                <Card>
                  <ThemeEditor key={current.id} app={app} themeId={current.id} onSaved={themes.reload} />
                </Card>
              </div>
            );
          }}
        </Loaded>
      )}
    </Page>
  );
}
