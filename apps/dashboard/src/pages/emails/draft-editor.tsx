/** One draft: its name, theme and TSX (the subject is the TSX's `subject` export), previewed live; save, delete; the AI assistant when offered. */
import type { EmailDraft, EmailTheme, StackAdminApp } from "@latchkey/js";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { Field } from "../../ui/field.tsx";
import { DraftSend } from "./draft-send.tsx";
import { themeOf } from "./template-editor.tsx";
import { TsxEditorForm } from "./tsx-editor-form.tsx";
import { useEmailPreview } from "./use-email-preview.ts";
import { useTsxEdit } from "./use-tsx-edit.ts";

/** The theme select's value for a choice: "" the project's theme, "none" no theme, else the theme's id. */
function themeValue(themeId: string | false | null): string {
  return themeId === null ? "" : themeId === false ? "none" : themeId;
}
function themeChoice(value: string): string | false | null {
  return value === "" ? null : value === "none" ? false : value;
}

export function DraftEditor({
  app,
  draft,
  themes,
  onSaved,
  onDeleted,
}: {
  app: StackAdminApp;
  draft: EmailDraft;
  themes: EmailTheme[];
  onSaved: () => void;
  onDeleted: () => void;
}) {
  const shared = useCurrentProject().config.emailConfig.type === "shared";
  const edit = useTsxEdit(
    { name: draft.displayName, source: draft.tsxSource, theme: themeValue(draft.themeId) },
    ({ name, source, theme }) => app.updateEmailDraft(draft.id, { displayName: name, tsxSource: source, themeId: themeChoice(theme) }),
    "Draft",
    onSaved,
  );
  const { name, source, theme } = edit.edited;
  const preview = useEmailPreview(app, { templateTsxSource: source, ...themeOf(themeChoice(theme)) });
  return (
    <>
      <TsxEditorForm
        head={
          <>
            <Field label="Draft name">
              {(props) => <input {...props} className="input" value={name} required onChange={(e) => edit.set("name", e.target.value)} />}
            </Field>
            <Field label="Theme">
              {(props) => (
                <select {...props} className="input" value={theme} onChange={(e) => edit.set("theme", e.target.value)}>
                  <option value="">The project's theme</option>
                  <option value="none">No theme</option>
                  {themes.map((t) => (
                    <option key={t.id} value={t.id}>
                      {t.displayName}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </>
        }
        note={
          <p className="muted">
            The subject is the source's <code>subject</code> export.
          </p>
        }
        edit={edit}
        removal={{ what: "draft", name: draft.displayName, remove: () => app.deleteEmailDraft(draft.id), removed: onDeleted }}
        label="Draft source"
        preview={preview}
        assistant={{ app, threadId: draft.id, contextType: "email-draft" }}
      />
      <section className="draft-send" aria-label="Send this draft">
        <h3>Send this draft</h3>
        <DraftSend app={app} draftId={draft.id} draftName={draft.displayName} unsaved={edit.changed} shared={shared} onSent={onSaved} />
      </section>
    </>
  );
}
