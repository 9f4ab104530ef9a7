/** The user's passkeys and OAuth provider accounts, each removable. */
import type { ServerUser } from "@latchkey/js";
import { useAction } from "../../../lib/use-action.ts";
import { useLoad } from "../../../lib/use-load.ts";
import { Card } from "../../../ui/page.tsx";
import { ActionStatus, Empty, Loaded } from "../../../ui/states.tsx";
import { formatDate } from "./format.ts";

export function SignInMethodsCard({ user, onChanged }: { user: ServerUser; onChanged: () => void }) {
  const passkeys = useLoad(() => user.listPasskeys(), [user]);
  const accounts = useLoad(() => user.listOAuthProviders(), [user]);
  const remove = useAction(async (item: { delete(): Promise<void> }, reload: () => void) => {
    await item.delete();
    reload();
    onChanged();
  });
  return (
    <Card title="Passkeys and OAuth accounts">
      <ActionStatus error={remove.error} />
      <h3>Passkeys</h3>
      <Loaded load={passkeys}>
        {(list) =>
          list.length === 0 ? (
            <Empty>
              <p>No passkeys.</p>
            </Empty>
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Added</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((passkey) => (
                  <tr key={passkey.id}>
                    <td>
                      {passkey.displayName}{" "}
                      <span className="badge">{passkey.deviceType === "multiDevice" ? "Synced" : "This device only"}</span>
                    </td>
                    <td>{formatDate(passkey.createdAt)}</td>
                    <td>{passkey.lastUsedAt ? formatDate(passkey.lastUsedAt) : <span className="muted">Never</span>}</td>
                    <td className="row-actions">
                      <button
                        type="button"
                        className="button button-danger button-small"
                        aria-label={`Remove passkey ${passkey.displayName}`}
                        disabled={remove.pending}
                        onClick={() => void remove.run(passkey, passkeys.reload)}
                      >
                        Remove
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
      <h3>OAuth accounts</h3>
      <Loaded load={accounts}>
        {(list) =>
          list.length === 0 ? (
            <Empty>
              <p>No accounts at OAuth providers.</p>
            </Empty>
          ) : (
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Provider</th>
                  <th scope="col">Account ID</th>
                  <th scope="col">E-mail</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {list.map((account) => (
                  <tr key={account.id}>
                    <td>{account.type}</td>
                    <td className="mono">{account.accountId}</td>
                    <td>{account.email ?? <span className="muted">None</span>}</td>
                    <td className="row-actions">
                      <button
                        type="button"
                        className="button button-danger button-small"
                        aria-label={`Remove ${account.type} account ${account.accountId}`}
                        disabled={remove.pending}
                        onClick={() => void remove.run(account, accounts.reload)}
                      >
                        Remove
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )
        }
      </Loaded>
    </Card>
  );
}
