/** One template: its TSX, previewed live in the template's theme; save, or delete with confirmation. */
import type { EmailTemplate, StackAdminApp } from "@latchkey/js";
import { useState } from "react";
import { useAction } from "../../lib/use-action.ts";
import { ActionStatus } from "../../ui/states.tsx";
import { TsxWorkbench } from "./tsx-workbench.tsx";
import { useEmailPreview } from "./use-email-preview.ts";

/** How a template or draft's theme choice is sent to the preview: null (the project's theme) is left out. */
export function themeOf(themeId: string | false | null): { themeId?: string | false } {
  return themeId === null ? {} : { themeId };
}

export function TemplateEditor({
  app,
  template,
  onSaved,
  onDeleted,
}: {
  app: StackAdminApp;
  template: EmailTemplate;
  onSaved: () => void;
  onDeleted: () => void;
}) {
  const [source, setSource] = useState(template.tsxSource);
  const [confirming, setConfirming] = useState(false);
  const preview = useEmailPreview(app, { templateTsxSource: source, ...themeOf(template.themeId) });
  const save = useAction(async () => {
    await app.updateEmailTemplate(template.id, { tsxSource: source });
    onSaved();
    return "Template saved.";
  });
  const remove = useAction(async () => {
    await app.deleteEmailTemplate(template.id);
    onDeleted();
  });
  const changed = source !== template.tsxSource;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        void save.run();
      }}
    >
      <div className="email-editor-head">
        <h2 className="email-editor-title">{template.displayName}</h2>
        <button type="submit" className="button" disabled={save.pending || !changed}>
          {save.pending ? "Saving…" : "Save"}
        </button>
        {confirming ? (
          <>
            <button type="button" className="button button-danger" disabled={remove.pending} onClick={() => void remove.run()}>
              Delete for good
            </button>
            <button type="button" className="button button-secondary" onClick={() => setConfirming(false)}>
              Keep
            </button>
          </>
        ) : (
          <button type="button" className="button button-secondary" onClick={() => setConfirming(true)}>
            Delete
          </button>
        )}
      </div>
      <ActionStatus error={save.error ?? remove.error} done={changed ? null : save.done} />
      <TsxWorkbench source={source} onChange={setSource} label="Template source" preview={preview} />
    </form>
  );
}
