/** The new project's name, description and owning team (asked only when the owner is in several teams). */
import type { AdminOwnedProject, Team } from "@latchkey/js";
import { useState, type FormEvent } from "react";
import { useOwnedProjects } from "../../lib/owned-projects.tsx";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";
import { Field } from "../../ui/field.tsx";
import { ActionStatus, Loaded } from "../../ui/states.tsx";

export function NewProjectForm({ onCreated }: { onCreated: (project: AdminOwnedProject) => Promise<void> }) {
  const { owner } = useOwnedProjects();
  const teams = useLoad(() => owner.listTeams(), [owner]);
  return (
    <Loaded load={teams} label="Loading your teams…">
      {(list) => <Form teams={list} defaultTeamId={owner.selectedTeamId ?? list[0]?.id ?? ""} onCreated={onCreated} />}
    </Loaded>
  );
}

function Form({
  teams,
  defaultTeamId,
  onCreated,
}: {
  teams: Team[];
  defaultTeamId: string;
  onCreated: (project: AdminOwnedProject) => Promise<void>;
}) {
  const { owner } = useOwnedProjects();
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [teamId, setTeamId] = useState(defaultTeamId);
  const create = useAction(async () => {
    const project = await owner.createProject({ displayName: name.trim(), description: description.trim(), teamId });
    await onCreated(project);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run();
  };
  return (
    <form className="form" onSubmit={submit}>
      <Field label="Project name" hint="Your app's name, as your users will see it on sign-in pages and e-mails.">
        {(props) => (
          <input {...props} className="input" required autoFocus maxLength={256} value={name} onChange={(e) => setName(e.target.value)} />
        )}
      </Field>
      <Field label="Description (optional)" hint="For you and your team: what this project is for.">
        {(props) => <textarea {...props} className="input" rows={2} value={description} onChange={(e) => setDescription(e.target.value)} />}
      </Field>
      {teams.length > 1 ? (
        <Field label="Team" hint="Everyone in this team can manage the project.">
          {(props) => (
            <select {...props} className="input" value={teamId} onChange={(e) => setTeamId(e.target.value)}>
              {teams.map((t) => (
                <option key={t.id} value={t.id}>
                  {t.displayName}
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : null}
      <ActionStatus error={!teamId ? "You are in no team yet: create one from your account settings first." : create.error} />
      <button type="submit" className="button" disabled={create.pending || !teamId || !name.trim()}>
        {create.pending ? "Creating…" : "Create project"}
      </button>
    </form>
  );
}
