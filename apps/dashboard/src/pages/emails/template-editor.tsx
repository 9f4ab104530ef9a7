/**
 * One template: its TSX, previewed live in the template's theme; save, or
 * delete with confirmation; and, when the server offers it, the AI assistant
 * to ask for a change.
 */
import type { EmailTemplate, StackAdminApp } from "@latchkey/js";
import { TsxEditorForm } from "./tsx-editor-form.tsx";
import { useEmailPreview } from "./use-email-preview.ts";
import { useTsxEdit } from "./use-tsx-edit.ts";

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
  const edit = useTsxEdit(
    { source: template.tsxSource },
    ({ source }) => app.updateEmailTemplate(template.id, { tsxSource: source }),
    "Template",
    onSaved,
  );
  const preview = useEmailPreview(app, { templateTsxSource: edit.edited.source, ...themeOf(template.themeId) });
  return (
    <TsxEditorForm
      head={<h2 className="email-editor-title">{template.displayName}</h2>}
      edit={edit}
      removal={{ what: "template", name: template.displayName, remove: () => app.deleteEmailTemplate(template.id), removed: onDeleted }}
      label="Template source"
      preview={preview}
      assistant={{ app, threadId: template.id, contextType: "email-template" }}
    />
  );
}
