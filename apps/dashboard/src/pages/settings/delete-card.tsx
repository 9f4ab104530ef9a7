/** Deletes the project for good, once the owner has typed its name. */
import type { AdminOwnedProject } from "@latchkey/js";
import { useState, type FormEvent } from "react";
import { useNavigate } from "react-router";
import { useOwnedProjects } from "../../lib/owned-projects.tsx";
import { useAction } from "../../lib/use-action.ts";
import { Field } from "../../ui/field.tsx";
import { Card } from "../../ui/page.tsx";
import { ActionStatus } from "../../ui/states.tsx";

export function DeleteCard({ project }: { project: AdminOwnedProject }) {
  const { refresh } = useOwnedProjects();
  const navigate = useNavigate();
  const [typed, setTyped] = useState("");
  const matches = typed === project.displayName;
  const remove = useAction(async () => {
    await project.delete();
    // Away first: the project's pages would otherwise show "Project not found" once the list no longer has it.
    await navigate("/projects", { replace: true });
    await refresh();
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (matches) void remove.run();
  };
  return (
    <Card title="Delete project" description="Its users, teams, keys and settings are deleted with it. This cannot be undone.">
      <form className="form danger-zone" onSubmit={submit}>
        <Field label={`Type “${project.displayName}” to confirm`}>
          {(props) => <input {...props} className="input" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />}
        </Field>
        <ActionStatus error={remove.error} />
        <button type="submit" className="button button-danger" disabled={!matches || remove.pending}>
          {remove.pending ? "Deleting…" : "Delete this project"}
        </button>
      </form>
    </Card>
  );
}
