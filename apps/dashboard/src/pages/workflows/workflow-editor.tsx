/**
 * One workflow: its name, whether it runs, the events that run it and its TypeScript, saved together (with a
 * question before unsaved edits are lost), delete after asking, and its recent runs below.
 */
import { WORKFLOW_TRIGGER_TYPES } from "@latchkey/shared";
import type { StackAdminApp, Workflow } from "@latchkey/js";
import { useState } from "react";
import { useAction } from "../../lib/use-action.ts";
import { useUnsavedChangesGuard } from "../../lib/use-unsaved-changes-guard.tsx";
import { CodeEditor } from "../../ui/code-editor.tsx";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Field, Toggle } from "../../ui/field.tsx";
import { Card } from "../../ui/page.tsx";
import { ActionStatus } from "../../ui/states.tsx";
import { WorkflowRuns } from "./workflow-runs.tsx";
import "./workflows.css";

type Edited = Pick<Workflow, "displayName" | "enabled" | "triggerEventTypes" | "source">;

function editedOf(workflow: Workflow): Edited {
  const { displayName, enabled, triggerEventTypes, source } = workflow;
  return { displayName, enabled, triggerEventTypes, source };
}

function sameEdit(a: Edited, b: Edited): boolean {
  return (
    a.displayName === b.displayName &&
    a.enabled === b.enabled &&
    a.source === b.source &&
    [...a.triggerEventTypes].sort().join() === [...b.triggerEventTypes].sort().join()
  );
}

export function WorkflowEditor({
  app,
  workflow,
  onSaved,
  onDeleted,
}: {
  app: StackAdminApp;
  workflow: Workflow;
  onSaved: () => void;
  onDeleted: () => void;
}) {
  const [saved, setSaved] = useState(() => editedOf(workflow));
  const [edited, setEdited] = useState(saved);
  const changed = !sameEdit(saved, edited);
  const guard = useUnsavedChangesGuard(changed);
  const set = <K extends keyof Edited>(key: K, value: Edited[K]) => setEdited((e) => ({ ...e, [key]: value }));
  const toggleTrigger = (type: string, on: boolean) =>
    set("triggerEventTypes", on ? [...edited.triggerEventTypes, type] : edited.triggerEventTypes.filter((t) => t !== type));
  const save = useAction(async () => {
    if (edited.triggerEventTypes.length === 0) throw new Error("Pick at least one event that runs the workflow.");
    const updated = await app.updateWorkflow(workflow.id, edited);
    setSaved(editedOf(updated));
    setEdited(editedOf(updated));
    onSaved();
    return "Saved.";
  });
  return (
    <div className="workflow-editor">
      {guard.prompt}
      <Card>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save.run();
          }}
        >
          <div className="email-editor-head">
            <Field label="Name">
              {(props) => (
                <input {...props} className="input" value={edited.displayName} onChange={(e) => set("displayName", e.target.value)} />
              )}
            </Field>
            <button type="submit" className="button" disabled={save.pending || !changed}>
              {save.pending ? "Saving…" : "Save"}
            </button>
            <ConfirmButton
              label="Delete"
              small={false}
              title="Delete this workflow?"
              confirmLabel="Delete workflow"
              pendingLabel="Deleting…"
              action={async () => {
                await app.deleteWorkflow(workflow.id);
                guard.release();
                onDeleted();
              }}
            >
              <p>“{workflow.displayName}” and its run log are deleted for good.</p>
            </ConfirmButton>
          </div>
          <Toggle
            label="Enabled"
            hint="Runs on the events below while on."
            checked={edited.enabled}
            onChange={(on) => set("enabled", on)}
          />
          <fieldset className="workflow-triggers">
            <legend>Runs when</legend>
            {WORKFLOW_TRIGGER_TYPES.map((type) => (
              <label key={type}>
                <input
                  type="checkbox"
                  checked={edited.triggerEventTypes.includes(type)}
                  onChange={(e) => toggleTrigger(type, e.target.checked)}
                />
                <code>{type}</code>
              </label>
            ))}
          </fieldset>
          <ActionStatus error={save.error} done={changed ? null : save.done} />
          <CodeEditor label="Workflow source (TypeScript)" value={edited.source} onChange={(source) => set("source", source)} />
        </form>
      </Card>
      <WorkflowRuns app={app} workflowId={workflow.id} />
    </div>
  );
}
