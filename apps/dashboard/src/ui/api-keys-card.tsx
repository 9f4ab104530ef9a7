/**
 * A user's or a team's API keys (the keys the project's app hands its users
 * and teams), read and revoked through the admin API. Only the last four
 * characters of a key are ever known after its creation, so that is all the
 * table shows. Revoking is for good: a revoked key's row stays, marked.
 */
import type { ApiKey } from "@latchkey/js";
import { Link } from "react-router";
import { formatDate } from "../pages/users/user-detail/format.ts";
import { useLoad } from "../lib/use-load.ts";
import { ConfirmButton } from "./confirm-button.tsx";
import { Card } from "./page.tsx";
import { Empty, Loaded } from "./states.tsx";
import { Table } from "./table.tsx";

export function ApiKeysCard({
  owner,
  whose,
  enabled,
}: {
  owner: { listApiKeys(): Promise<ApiKey[]> };
  /** "user" or "team", in the card's words. */
  whose: "user" | "team";
  /** Whether the project allows this kind of key: while it does not, the server answers nothing about them. */
  enabled: boolean;
}) {
  return (
    <Card title="API keys" description={`Keys this ${whose} created to call your app's API.`}>
      {enabled ? (
        <KeysTable owner={owner} whose={whose} />
      ) : (
        <Empty>
          <p>
            {whose === "user" ? "User" : "Team"} API keys are turned off for this project (on the{" "}
            <Link to="../auth-methods">Auth methods</Link> page).
          </p>
        </Empty>
      )}
    </Card>
  );
}

function KeysTable({ owner, whose }: { owner: { listApiKeys(): Promise<ApiKey[]> }; whose: "user" | "team" }) {
  const keys = useLoad(() => owner.listApiKeys(), [owner]);
  return (
    <Loaded load={keys}>
      {(list) =>
        list.length === 0 ? (
          <Empty>
            <p>This {whose} has no API keys.</p>
          </Empty>
        ) : (
          <Table columns={["Description", "Key", "Created", "Expires", "Last used", "Status"]} actions label={`The ${whose}'s API keys`}>
            {list.map((key) => (
              <KeyRow key={key.id} apiKey={key} onRevoked={keys.reload} />
            ))}
          </Table>
        )
      }
    </Loaded>
  );
}

const STATUS = {
  valid: <span className="badge badge-success">Valid</span>,
  expired: <span className="badge badge-warning">Expired</span>,
  "manually-revoked": <span className="badge badge-warning">Revoked</span>,
};

function KeyRow({ apiKey, onRevoked }: { apiKey: ApiKey; onRevoked: () => void }) {
  const why = apiKey.whyInvalid();
  return (
    <tr data-api-key-id={apiKey.id}>
      <td>{apiKey.description}</td>
      <td className="mono">…{apiKey.value.lastFour}</td>
      <td>{formatDate(apiKey.createdAt)}</td>
      <td>{apiKey.expiresAt ? formatDate(apiKey.expiresAt) : "Never"}</td>
      <td>{apiKey.lastUsedAt ? formatDate(apiKey.lastUsedAt) : "Never"}</td>
      <td>{STATUS[why ?? "valid"]}</td>
      <td className="row-actions">
        {why === "manually-revoked" ? null : (
          <ConfirmButton
            label="Revoke"
            ariaLabel={`Revoke the key ${apiKey.description}`}
            title="Revoke this API key?"
            confirmLabel="Revoke key"
            pendingLabel="Revoking…"
            action={async () => {
              await apiKey.revoke();
              onRevoked();
            }}
          >
            <p>
              “{apiKey.description}” (ending in <span className="mono">{apiKey.value.lastFour}</span>) stops working at once, for good.
            </p>
          </ConfirmButton>
        )}
      </td>
    </tr>
  );
}
