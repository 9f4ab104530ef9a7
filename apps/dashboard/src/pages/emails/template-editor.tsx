/**
 * One template: its TSX, previewed live in the template's theme; save, or
 * delete with confirmation; and, when the server offers it, the AI assistant
 * to ask for a change.
 */
import type { EmailTemplate, StackAdminApp } from "@latchkey/js";
import { useState } from "react";
import { useAction } from "../../lib/use-action.ts";
import { AiChatPanel } from "./ai-chat-panel.tsx";
import { TsxEditorForm } from "./tsx-editor-form.tsx";
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
  const preview = useEmailPreview(app, { templateTsxSource: source, ...themeOf(template.themeId) });
  const save = useAction(async () => {
    await app.updateEmailTemplate(template.id, { tsxSource: source });
    onSaved();
    return "Template saved.";
  });
  const changed = source !== template.tsxSource;
  return (
    <>
      <TsxEditorForm
        head={<h2 className="email-editor-title">{template.displayName}</h2>}
        save={save}
        changed={changed}
        removal={{ what: "template", name: template.displayName, remove: () => app.deleteEmailTemplate(template.id), removed: onDeleted }}
        source={source}
        onSource={setSource}
        label="Template source"
        preview={preview}
      />
      {/* The thread is named after the template: the assistant sees its saved source, and the talk is there next time. */}
      <AiChatPanel app={app} threadId={template.id} contextType="email-template" onUse={setSource} />
    </>
  );
}
