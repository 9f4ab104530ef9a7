/** A team's own settings in account settings: its name ($update_team) and deleting it ($delete_team). */
import type { Team } from "@latchkey/js";
import { useState } from "react";
import { Alert, ConfirmedAction, Field, Subsection, submitTo, useAction } from "./parts.tsx";

export function TeamSettings({ team, canUpdate, canDelete }: { team: Team; canUpdate: boolean; canDelete: boolean }) {
  return (
    <Subsection title="Team settings">
      {canUpdate ? <RenameForm key={team.displayName} team={team} /> : null}
      {canDelete ? <DeleteTeam team={team} /> : null}
    </Subsection>
  );
}

function RenameForm({ team }: { team: Team }) {
  const [name, setName] = useState(team.displayName);
  const rename = useAction(async () => {
    await team.update({ displayName: name.trim() });
  });
  return (
    <form className="lk-form" onSubmit={submitTo(rename.run)}>
      <Field label="Team name" required maxLength={256} value={name} onChange={(e) => setName(e.target.value)} />
      <Alert>{rename.error}</Alert>
      <span className="lk-row">
        <button className="lk-button" type="submit" disabled={rename.busy || name.trim() === "" || name.trim() === team.displayName}>
          Rename team
        </button>
      </span>
    </form>
  );
}

function DeleteTeam({ team }: { team: Team }) {
  const remove = useAction(async () => {
    await team.delete();
  });
  return (
    <div className="lk-form lk-danger-zone">
      <p className="lk-muted">Deleting the team removes its members, invitations and permissions. It cannot be undone.</p>
      <Alert>{remove.error}</Alert>
      <ConfirmedAction
        label="Delete team…"
        confirmLabel={`Delete ${team.displayName}`}
        busy={remove.busy}
        onConfirm={() => void remove.run()}
      />
    </div>
  );
}
