/**
 * The project's data vault stores (`dataVault.stores.<id>`), listed and
 * added here through the config (the environment's override). Only the
 * stores' ids and names are shown: their values are encrypted by the app
 * with its own secret, and nobody reads them here, or anywhere on the
 * server.
 */
import type { RenderedConfig } from "@latchkey/shared";
import { CONFIG_KEY_SEGMENT_PATTERN } from "@latchkey/shared/config/validate";
import { useState } from "react";
import { useUpdateConfig } from "../../lib/save-config.ts";
import { useAction } from "../../lib/use-action.ts";
import { Dialog, FormActions } from "../../ui/dialog.tsx";
import { Field } from "../../ui/field.tsx";
import { Card } from "../../ui/page.tsx";
import { ActionStatus, Empty } from "../../ui/states.tsx";
import { Table } from "../../ui/table.tsx";

type Stores = RenderedConfig["dataVault"]["stores"];

export function DataVaultCard({ stores, onSaved }: { stores: Stores; onSaved: () => void }) {
  const [adding, setAdding] = useState(false);
  const entries = Object.entries(stores).sort(([a], [b]) => a.localeCompare(b));
  return (
    <Card
      title="Data vault stores"
      description="Where the server SDK's getDataVaultStore(id) keeps values, encrypted by your app with its own secret: only the stores are listed, never their values."
      actions={
        <button type="button" className="button" onClick={() => setAdding(true)}>
          Add store
        </button>
      }
    >
      <Dialog open={adding} title="Add a data vault store" onClose={() => setAdding(false)}>
        {adding ? (
          <StoreForm
            stores={stores}
            onDone={(saved) => {
              setAdding(false);
              if (saved) onSaved();
            }}
          />
        ) : null}
      </Dialog>
      {entries.length === 0 ? (
        <Empty>
          <p>No stores yet. Add one, then read and write it with getDataVaultStore(id) on your server.</p>
        </Empty>
      ) : (
        <Table columns={["Store id", "Display name"]} label="Data vault stores">
          {entries.map(([id, store]) => (
            <tr key={id}>
              <td className="mono">{id}</td>
              <td>{store.displayName}</td>
            </tr>
          ))}
        </Table>
      )}
    </Card>
  );
}

function StoreForm({ stores, onDone }: { stores: Stores; onDone: (saved: boolean) => void }) {
  const [id, setId] = useState("");
  const [displayName, setDisplayName] = useState("");
  const update = useUpdateConfig();
  const action = useAction(async (storeId: string, name: string) => {
    // The id becomes a key of the config: one segment of it, so no dots or spaces.
    if (!CONFIG_KEY_SEGMENT_PATTERN.test(storeId)) throw new Error("A store id may only hold letters, digits and _ $ : -.");
    if (Object.hasOwn(stores, storeId)) throw new Error(`There is already a store "${storeId}".`);
    await update({ [`dataVault.stores.${storeId}`]: name ? { displayName: name } : {} });
  });
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        void action.run(id.trim(), displayName.trim()).then((ok) => ok && onDone(true));
      }}
    >
      <Field label="Store id" hint="What your code names: getDataVaultStore(id). Letters, digits and _ $ : -.">
        {(props) => (
          <input
            {...props}
            className="input mono"
            required
            autoComplete="off"
            placeholder="oauth-tokens"
            value={id}
            onChange={(e) => setId(e.target.value)}
          />
        )}
      </Field>
      <Field label="Display name" hint="For people; empty, it is “Unnamed Vault”.">
        {(props) => <input {...props} className="input" value={displayName} onChange={(e) => setDisplayName(e.target.value)} />}
      </Field>
      <ActionStatus error={action.error} />
      <FormActions onCancel={() => onDone(false)} pending={action.pending} submitLabel={"Add store"} />
    </form>
  );
}
