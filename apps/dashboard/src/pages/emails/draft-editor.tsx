/** One draft: its name, theme and TSX (the subject is the TSX's `subject` export), previewed live; save, delete. */
import type { EmailDraft, EmailTheme, StackAdminApp } from "@latchkey/js";
import { useState } from "react";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { useAction } from "../../lib/use-action.ts";
import { Field } from "../../ui/field.tsx";
import { DraftSend } from "./draft-send.tsx";
import { themeOf } from "./template-editor.tsx";
import { TsxEditorForm } from "./tsx-editor-form.tsx";
import { useEmailPreview } from "./use-email-preview.ts";

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
  const [name, setName] = useState(draft.displayName);
  const [source, setSource] = useState(draft.tsxSource);
  const [theme, setTheme] = useState(themeValue(draft.themeId));
  const preview = useEmailPreview(app, { templateTsxSource: source, ...themeOf(themeChoice(theme)) });
  const changed = name !== draft.displayName || source !== draft.tsxSource || theme !== themeValue(draft.themeId);
  const save = useAction(async () => {
    await app.updateEmailDraft(draft.id, { displayName: name, tsxSource: source, themeId: themeChoice(theme) });
    onSaved();
    return "Draft saved.";
  });
  return (
    <>
      <TsxEditorForm
        head={
          <>
            <Field label="Draft name">
              {(props) => <input {...props} className="input" value={name} required onChange={(e) => setName(e.target.value)} />}
            </Field>
            <Field label="Theme">
              {(props) => (
                <select {...props} className="input" value={theme} onChange={(e) => setTheme(e.target.value)}>
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
        save={save}
        changed={changed}
        removal={{ what: "draft", name: draft.displayName, remove: () => app.deleteEmailDraft(draft.id), removed: onDeleted }}
        source={source}
        onSource={setSource}
        label="Draft source"
        preview={preview}
      />
      <section className="draft-send" aria-label="Send this draft">
        <h3>Send this draft</h3>
        <DraftSend app={app} draftId={draft.id} draftName={draft.displayName} unsaved={changed} shared={shared} onSent={onSaved} />
      </section>
    </>
  );
}
