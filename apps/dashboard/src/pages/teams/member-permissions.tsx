/** One member's team permissions: each definition as a switch that grants or revokes it at once. */
import type { AdminPermissionDefinition, ServerTeam, ServerTeamUser } from "@latchkey/js";
import { useEffect, useState } from "react";
import { useAction } from "../../lib/use-action.ts";
import type { Load } from "../../lib/use-load.ts";
import { Toggle } from "../../ui/field.tsx";
import { ActionStatus, Loaded } from "../../ui/states.tsx";

export function MemberPermissions({
  team,
  member,
  definitions,
  held,
}: {
  team: ServerTeam;
  member: ServerTeamUser;
  definitions: Load<AdminPermissionDefinition[]>;
  /** The member's direct grants in the team. */
  held: Load<string[]>;
}) {
  // A switch shows its new state at once; the next read of the grants replaces these.
  const [shown, setShown] = useState<Record<string, boolean>>({});
  useEffect(() => setShown({}), [held.data]);
  const toggle = useAction(async (id: string, grant: boolean) => {
    setShown((s) => ({ ...s, [id]: grant }));
    try {
      if (grant) await member.grantPermission(team, id);
      else await member.revokePermission(team, id);
    } finally {
      held.reload();
    }
  });
  return (
    <Loaded load={definitions}>
      {(defs) => (
        <Loaded load={held}>
          {(ids) => (
            <fieldset className="fieldset permission-switches">
              <legend>Granted in this team</legend>
              {defs.map((def) => (
                <Toggle
                  key={def.id}
                  label={def.id}
                  hint={def.description}
                  checked={shown[def.id] ?? ids.includes(def.id)}
                  onChange={(on) => void toggle.run(def.id, on)}
                />
              ))}
              <ActionStatus error={toggle.error} />
            </fieldset>
          )}
        </Loaded>
      )}
    </Loaded>
  );
}
