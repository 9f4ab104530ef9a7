/** Moves the project to another team of the owner's, after a confirmation. */
import type { AdminOwnedProject } from "@latchkey/js";
import { useState } from "react";
import { useOwnedProjects } from "../../lib/owned-projects.tsx";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Field } from "../../ui/field.tsx";
import { Card } from "../../ui/page.tsx";
import { ActionStatus, Loaded } from "../../ui/states.tsx";

export function TransferCard({ project }: { project: AdminOwnedProject }) {
  const { owner, refresh } = useOwnedProjects();
  const teams = useLoad(() => owner.listTeams(), [owner]);
  const [teamId, setTeamId] = useState("");
  const [confirming, setConfirming] = useState(false);
  const all = teams.data ?? [];
  const current = all.find((t) => t.id === project.ownerTeamId);
  const others = all.filter((t) => t.id !== project.ownerTeamId);
  const target = others.find((t) => t.id === teamId) ?? others[0];
  const transfer = useAction(async () => {
    if (!target) return;
    await owner.transferProject(project.id, target.id);
    setConfirming(false);
    await refresh();
    return `${project.displayName} now belongs to ${target.displayName}.`;
  });
  return (
    <Card
      title="Transfer project"
      description={current ? `Owned by ${current.displayName}. Move it to another of your teams.` : "Move it to another of your teams."}
    >
      <Loaded load={teams} label="Loading your teams…">
        {() =>
          others.length === 0 ? (
            <p className="muted">You are in no other team. Create one from your account settings to move this project there.</p>
          ) : (
            <div className="inline-form">
              <Field label="New owner team">
                {(props) => (
                  <select {...props} className="input" value={target?.id ?? ""} onChange={(e) => setTeamId(e.target.value)}>
                    {others.map((t) => (
                      <option key={t.id} value={t.id}>
                        {t.displayName}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
              <button type="button" className="button button-secondary" onClick={() => (transfer.reset(), setConfirming(true))}>
                Transfer…
              </button>
            </div>
          )
        }
      </Loaded>
      <ActionStatus error={confirming ? null : transfer.error} done={transfer.done} />
      <Dialog open={confirming} title="Transfer this project?" onClose={() => setConfirming(false)}>
        <p>
          {project.displayName} will belong to {target?.displayName}. Members of {current?.displayName ?? "its current team"} who are not in{" "}
          {target?.displayName} lose access to it.
        </p>
        <ActionStatus error={transfer.error} />
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
          <button type="button" className="button" disabled={transfer.pending} onClick={() => void transfer.run()}>
            {transfer.pending ? "Transferring…" : "Transfer project"}
          </button>
        </div>
      </Dialog>
    </Card>
  );
}
