/**
 * The frame every TSX editor shares: a head with its own fields, Save and an
 * optional Delete (asked first), the save's status, and the workbench; a
 * question before unsaved edits are lost; and the AI assistant, when the
 * server offers one, whose proposals go into the workbench.
 */
import type { ReactNode } from "react";
import { useUnsavedChangesGuard } from "../../lib/use-unsaved-changes-guard.tsx";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { ActionStatus } from "../../ui/states.tsx";
import { AiChatPanel, type AiChatThread } from "./ai-chat-panel.tsx";
import { TsxWorkbench } from "./tsx-workbench.tsx";
import type { Preview } from "./use-email-preview.ts";
import type { SourceEdit } from "./use-tsx-edit.ts";

export interface Removal {
  /** "template" or "draft", as the dialog names it. */
  what: string;
  name: string;
  remove: () => Promise<unknown>;
  /** After the deletion: the editor is left without asking, nothing of it is kept. */
  removed: () => void;
}

export function TsxEditorForm({
  head,
  note,
  edit,
  removal,
  label,
  preview,
  assistant,
}: {
  head: ReactNode;
  note?: ReactNode;
  edit: SourceEdit;
  removal?: Removal;
  label: string;
  preview: Preview;
  /** The conversation kept for what is edited (named after it, so it is there next time). */
  assistant: AiChatThread;
}) {
  const { save, changed } = edit;
  const onSource = (source: string) => edit.set("source", source);
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
          {head}
          <button type="submit" className="button" disabled={save.pending || !changed}>
            {save.pending ? "Saving…" : "Save"}
          </button>
          {removal ? (
            <ConfirmButton
              label="Delete"
              small={false}
              title={`Delete this ${removal.what}?`}
              confirmLabel={`Delete ${removal.what}`}
              pendingLabel="Deleting…"
              action={async () => {
                await removal.remove();
                guard.release();
                removal.removed();
              }}
            >
              <p>“{removal.name}” is deleted for good.</p>
            </ConfirmButton>
          ) : null}
        </div>
        {note}
        <ActionStatus error={save.error} done={changed ? null : save.done} />
        <TsxWorkbench source={edit.edited.source} onChange={onSource} label={label} preview={preview} />
      </form>
      <AiChatPanel {...assistant} onUse={onSource} />
    </>
  );
}
