/** The user's passkeys and OAuth provider accounts, each removable. */
import type { ServerUser } from "@latchkey/js";
import { useLoad } from "../../../lib/use-load.ts";
import { ConfirmButton } from "../../../ui/confirm-button.tsx";
import { Card } from "../../../ui/page.tsx";
import { Empty, Loaded } from "../../../ui/states.tsx";
import { Table } from "../../../ui/table.tsx";
import { formatDate } from "./format.ts";

export function SignInMethodsCard({ user, onChanged }: { user: ServerUser; onChanged: () => void }) {
  const passkeys = useLoad(() => user.listPasskeys(), [user]);
  const accounts = useLoad(() => user.listOAuthProviders(), [user]);
  const removeItem = async (item: { delete(): Promise<void> }, reload: () => void) => {
    await item.delete();
    reload();
    onChanged();
  };
  return (
    <Card title="Passkeys and OAuth accounts">
      <h3>Passkeys</h3>
      <Loaded load={passkeys}>
        {(list) =>
          list.length === 0 ? (
            <Empty>
              <p>No passkeys.</p>
            </Empty>
          ) : (
            <Table columns={["Name", "Added", "Last used"]} actions>
              {list.map((passkey) => (
                <tr key={passkey.id}>
                  <td>
                    {passkey.displayName}{" "}
                    <span className="badge">{passkey.deviceType === "multiDevice" ? "Synced" : "This device only"}</span>
                  </td>
                  <td>{formatDate(passkey.createdAt)}</td>
                  <td>{passkey.lastUsedAt ? formatDate(passkey.lastUsedAt) : <span className="muted">Never</span>}</td>
                  <td>
                    <ConfirmButton
                      label="Remove"
                      ariaLabel={`Remove passkey ${passkey.displayName}`}
                      title="Remove this passkey?"
                      confirmLabel="Remove passkey"
                      pendingLabel="Removing…"
                      action={() => removeItem(passkey, passkeys.reload)}
                    >
                      <p>“{passkey.displayName}” can no longer sign this user in.</p>
                    </ConfirmButton>
                  </td>
                </tr>
              ))}
            </Table>
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
            <Table columns={["Provider", "Account ID", "E-mail"]} actions>
              {list.map((account) => (
                <tr key={account.id}>
                  <td>{account.type}</td>
                  <td className="mono">{account.accountId}</td>
                  <td>{account.email ?? <span className="muted">None</span>}</td>
                  <td>
                    <ConfirmButton
                      label="Remove"
                      ariaLabel={`Remove ${account.type} account ${account.accountId}`}
                      title="Remove this account?"
                      confirmLabel="Remove account"
                      pendingLabel="Removing…"
                      action={() => removeItem(account, accounts.reload)}
                    >
                      <p>The user can no longer sign in with this {account.type} account, and apps lose access to it.</p>
                    </ConfirmButton>
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
