/** Creates a team: its name and, optionally, the user who creates it (they join with the team-creator permissions). */
import type { ServerTeam, ServerUser, StackAdminApp } from "@latchkey/js";
import { useState, type FormEvent } from "react";
import { useAction } from "../../lib/use-action.ts";
import { Field } from "../../ui/field.tsx";
import { ActionStatus } from "../../ui/states.tsx";
import { UserPicker } from "./user-picker.tsx";

export function NewTeamForm({ app, onCreated }: { app: StackAdminApp; onCreated: (team: ServerTeam) => void }) {
  const [name, setName] = useState("");
  const [creator, setCreator] = useState<ServerUser | null>(null);
  const create = useAction(async () => {
    const team = await app.createTeam({ displayName: name.trim(), ...(creator ? { creatorUserId: creator.id } : {}) });
    onCreated(team);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run();
  };
  return (
    <form className="form" onSubmit={submit}>
      <Field label="Team name">
        {(props) => <input {...props} className="input" required value={name} onChange={(e) => setName(e.target.value)} />}
      </Field>
      <UserPicker
        app={app}
        label="Creator (optional)"
        hint="Joins the team with the team-creator permissions."
        picked={creator}
        onPick={setCreator}
      />
      <ActionStatus error={create.error} />
      <button type="submit" className="button" disabled={create.pending || !name.trim()}>
        {create.pending ? "Creating…" : "Create team"}
      </button>
    </form>
  );
}
