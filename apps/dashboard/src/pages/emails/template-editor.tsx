/** One template: its TSX, previewed live in the template's theme; save, or delete with confirmation. */
import type { EmailTemplate, StackAdminApp } from "@latchkey/js";
import { useState } from "react";
import { useAction } from "../../lib/use-action.ts";
import { useUnsavedChangesGuard } from "../../lib/use-unsaved-changes-guard.tsx";
import { ActionStatus } from "../../ui/states.tsx";
import { TsxWorkbench } from "./tsx-workbench.tsx";
import { useEmailPreview } from "./use-email-preview.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";

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
  const preview = useEmailPreview(app, { templateTsxSource: source, ...themeOf(template.themeId) });
  const save = useAction(async () => {
    await app.updateEmailTemplate(template.id, { tsxSource: source });
    onSaved();
    return "Template saved.";
  });
  const changed = source !== template.tsxSource;
  const guard = useUnsavedChangesGuard(changed);
  return (
    <>
      {guard.prompt}
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
          <ConfirmButton
            label="Delete"
            small={false}
            title="Delete this template?"
            confirmLabel="Delete template"
            pendingLabel="Deleting…"
            action={async () => {
              await app.deleteEmailTemplate(template.id);
              guard.release();
              onDeleted();
            }}
          >
            <p>“{template.displayName}” is deleted for good.</p>
          </ConfirmButton>
        </div>
        <ActionStatus error={save.error} done={changed ? null : save.done} />
        <TsxWorkbench source={source} onChange={setSource} label="Template source" preview={preview} />
      </form>
    </>
  );
}
