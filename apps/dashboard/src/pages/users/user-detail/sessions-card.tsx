/** The user's active sessions (impersonations marked) with Revoke: a revoked session's refresh token stops working at once. */
import type { ActiveSession, ServerUser } from "@latchkey/js";
import { useAction } from "../../../lib/use-action.ts";
import type { Load } from "../../../lib/use-load.ts";
import { Card } from "../../../ui/page.tsx";
import { ActionStatus, Empty, Loaded } from "../../../ui/states.tsx";
import { Table } from "../../../ui/table.tsx";
import { formatDate } from "./format.ts";

export function SessionsCard({ user, sessions }: { user: ServerUser; sessions: Load<ActiveSession[]> }) {
  const revoke = useAction(async (session: ActiveSession) => {
    await user.revokeSession(session.id);
    sessions.reload();
    return "Session revoked.";
  });
  return (
    <Card title="Sessions" description="Where this user is signed in. Revoking a session signs that device out.">
      <ActionStatus error={revoke.error} done={revoke.done} />
      <Loaded load={sessions}>
        {(list) =>
          list.length === 0 ? (
            <Empty>
              <p>This user is not signed in anywhere.</p>
            </Empty>
          ) : (
            <Table columns={["Created", "Last used", "IP address", "Kind"]} actions>
              {list.map((session) => (
                <tr key={session.id} data-session-id={session.id}>
                  <td>{formatDate(session.createdAt)}</td>
                  <td>{formatDate(session.lastUsedAt)}</td>
                  <td className="mono">{session.lastUsedIp ?? <span className="muted">Unknown</span>}</td>
                  <td>{session.isImpersonation ? <span className="badge badge-warning">Impersonation</span> : "Sign-in"}</td>
                  <td className="row-actions">
                    <button
                      type="button"
                      className="button button-danger button-small"
                      aria-label={`Revoke the session created ${formatDate(session.createdAt)}`}
                      disabled={revoke.pending}
                      onClick={() => void revoke.run(session)}
                    >
                      Revoke
                    </button>
                  </td>
                </tr>
              ))}
            </Table>
          )
        }
      </Loaded>
    </Card>
  );
}
