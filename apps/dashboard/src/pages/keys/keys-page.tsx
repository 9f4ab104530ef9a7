/** The project's key sets: create (shown once), list with each key's last four characters, revoke. */
import type { InternalApiKey, InternalApiKeyFirstView } from "@latchkey/js";
import { useState } from "react";
import { useAdminApp, useCurrentProject } from "../../lib/owned-projects.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { Empty, Loaded } from "../../ui/states.tsx";
import { Table } from "../../ui/table.tsx";
import { KeysShownOnce } from "./keys-shown-once.tsx";
import { NewKeysForm } from "./new-keys-form.tsx";

export default function KeysPage() {
  const app = useAdminApp();
  const project = useCurrentProject();
  const keys = useLoad(() => app.listInternalApiKeys(), [app]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<InternalApiKeyFirstView | null>(null);
  const [copied, setCopied] = useState(false);
  const close = () => {
    setCreating(false);
    setCreated(null);
    setCopied(false);
  };
  return (
    <Page
      title="Project keys"
      description="Keys let your apps and servers talk to this project. Full values are shown once, when you create them."
      actions={
        <button type="button" className="button" onClick={() => setCreating(true)}>
          New keys
        </button>
      }
    >
      {/* Shown once: Escape must not throw the new keys away before they are copied. */}
      <Dialog open={creating} title={created ? "Your new keys" : "New keys"} onClose={close} dismissible={!created || copied}>
        {created ? (
          <KeysShownOnce projectId={project.id} keys={created} onDone={close} onCopiedChange={setCopied} />
        ) : (
          <NewKeysForm
            app={app}
            onCreated={(k) => {
              setCreated(k);
              keys.reload();
            }}
          />
        )}
      </Dialog>
      <Card>
        <Loaded load={keys}>
          {(list) =>
            list.length === 0 ? (
              <Empty>
                <p>This project has no keys yet. Create a set for each app or server that talks to it.</p>
              </Empty>
            ) : (
              <Table columns={["Description", "Keys", "Created", "Status"]} actions>
                {list.map((key) => (
                  <KeyRow key={key.id} apiKey={key} onRevoked={keys.reload} />
                ))}
              </Table>
            )
          }
        </Loaded>
      </Card>
    </Page>
  );
}

function KeyRow({ apiKey, onRevoked }: { apiKey: InternalApiKey; onRevoked: () => void }) {
  const why = apiKey.whyInvalid();
  const parts = [
    apiKey.publishableClientKey && `client …${apiKey.publishableClientKey.lastFour}`,
    apiKey.secretServerKey && `server …${apiKey.secretServerKey.lastFour}`,
    apiKey.superSecretAdminKey && `admin …${apiKey.superSecretAdminKey.lastFour}`,
  ].filter(Boolean);
  return (
    <tr>
      <td>{apiKey.description}</td>
      <td className="mono">{parts.join(", ")}</td>
      <td>{apiKey.createdAt.toLocaleDateString()}</td>
      <td>
        {why === "manually-revoked"
          ? "Revoked"
          : why === "expired"
            ? "Expired"
            : apiKey.expiresAt
              ? `Valid until ${apiKey.expiresAt.toLocaleDateString()}`
              : "Valid"}
      </td>
      <td>
        <div className="row-actions">
          {why === null ? (
            <ConfirmButton
              label="Revoke"
              title="Revoke these keys?"
              confirmLabel="Revoke keys"
              pendingLabel="Revoking…"
              action={async () => {
                await apiKey.revoke();
                onRevoked();
              }}
            >
              <p>Apps using “{apiKey.description}” stop working at once. This cannot be undone.</p>
            </ConfirmButton>
          ) : null}
        </div>
      </td>
    </tr>
  );
}
