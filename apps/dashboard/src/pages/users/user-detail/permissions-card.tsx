/** The user's teams with the team permissions they hold there, and their project permissions (granted or revoked here). */
import type { ServerUser, StackAdminApp } from "@latchkey/js";
import { useAction } from "../../../lib/use-action.ts";
import { useLoad } from "../../../lib/use-load.ts";
import { Toggle } from "../../../ui/field.tsx";
import { Card } from "../../../ui/page.tsx";
import { ActionStatus, Empty, Loaded } from "../../../ui/states.tsx";
import { Table } from "../../../ui/table.tsx";

export function PermissionsCard({ app, user }: { app: StackAdminApp; user: ServerUser }) {
  const teams = useLoad(
    () =>
      user
        .listTeams()
        .then((list) =>
          Promise.all(list.map(async (team) => ({ team, permissions: await user.listPermissions(team, { recursive: true }) }))),
        ),
    [user],
  );
  const project = useLoad(
    () =>
      Promise.all([app.listProjectPermissionDefinitions(), user.listPermissions()]).then(([definitions, held]) => ({
        definitions,
        held: new Set(held.map((p) => p.id)),
      })),
    [app, user],
  );
  const change = useAction(async (permissionId: string, grant: boolean) => {
    await (grant ? user.grantPermission(permissionId) : user.revokePermission(permissionId));
    project.reload();
  });
  return (
    <Card title="Teams and permissions">
      <h3>Teams</h3>
      <Loaded load={teams}>
        {(list) =>
          list.length === 0 ? (
            <Empty>
              <p>This user is in no teams.</p>
            </Empty>
          ) : (
            <Table columns={["Team", "Team permissions"]}>
              {list.map(({ team, permissions }) => (
                <tr key={team.id}>
                  <td>{team.displayName}</td>
                  <td>
                    {permissions.length === 0 ? (
                      <span className="muted">None</span>
                    ) : (
                      <span className="badges">
                        {permissions.map((p) => (
                          <span key={p.id} className="badge mono">
                            {p.id}
                          </span>
                        ))}
                      </span>
                    )}
                  </td>
                </tr>
              ))}
            </Table>
          )
        }
      </Loaded>
      <h3>Project permissions</h3>
      <ActionStatus error={change.error} />
      <Loaded load={project}>
        {({ definitions, held }) =>
          definitions.length === 0 ? (
            <Empty>
              <p>This project defines no project permissions.</p>
            </Empty>
          ) : (
            <div className="permission-list">
              {definitions.map((definition) => (
                <Toggle
                  key={definition.id}
                  label={definition.id}
                  hint={definition.description}
                  checked={held.has(definition.id)}
                  disabled={change.pending}
                  onChange={(checked) => void change.run(definition.id, checked)}
                />
              ))}
            </div>
          )
        }
      </Loaded>
    </Card>
  );
}
