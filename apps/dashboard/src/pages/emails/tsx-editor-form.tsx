/**
 * The frame every TSX editor shares: a head with its own fields, Save and an
 * optional Delete (asked first), the save's status, and the workbench; and a
 * question before unsaved edits are lost.
 */
import type { ReactNode } from "react";
import type { Action } from "../../lib/use-action.ts";
import { useUnsavedChangesGuard } from "../../lib/use-unsaved-changes-guard.tsx";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { ActionStatus } from "../../ui/states.tsx";
import { TsxWorkbench } from "./tsx-workbench.tsx";
import type { Preview } from "./use-email-preview.ts";

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
  save,
  changed,
  removal,
  source,
  onSource,
  label,
  preview,
}: {
  head: ReactNode;
  note?: ReactNode;
  save: Action<[]>;
  changed: boolean;
  removal?: Removal;
  source: string;
  onSource: (source: string) => void;
  label: string;
  preview: Preview;
}) {
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
        <TsxWorkbench source={source} onChange={onSource} label={label} preview={preview} />
      </form>
    </>
  );
}
