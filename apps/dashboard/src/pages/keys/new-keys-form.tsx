/** Creates a key set: what it is for, when it expires, and which of the three keys it holds. */
import type { InternalApiKeyFirstView, StackAdminApp } from "@latchkey/js";
import { useState, type FormEvent } from "react";
import { useAction } from "../../lib/use-action.ts";
import { Field, Toggle } from "../../ui/field.tsx";
import { ActionStatus } from "../../ui/states.tsx";

const DAY = 24 * 60 * 60 * 1000;
/** The choices of lifetime; "never" is a date far enough away to outlive any deployment. */
const EXPIRIES = [
  { label: "1 day", millis: DAY },
  { label: "7 days", millis: 7 * DAY },
  { label: "30 days", millis: 30 * DAY },
  { label: "90 days", millis: 90 * DAY },
  { label: "1 year", millis: 365 * DAY },
  { label: "Never", millis: 100 * 365 * DAY },
];

export function NewKeysForm({ app, onCreated }: { app: StackAdminApp; onCreated: (keys: InternalApiKeyFirstView) => void }) {
  const [description, setDescription] = useState("");
  const [expiry, setExpiry] = useState(String(EXPIRIES[4]!.millis));
  const [client, setClient] = useState(true);
  const [server, setServer] = useState(true);
  const [admin, setAdmin] = useState(false);
  const create = useAction(async () => {
    const keys = await app.createInternalApiKey({
      description: description.trim(),
      expiresAt: new Date(Date.now() + Number(expiry)),
      hasPublishableClientKey: client,
      hasSecretServerKey: server,
      hasSuperSecretAdminKey: admin,
    });
    onCreated(keys);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run();
  };
  return (
    <form className="form" onSubmit={submit}>
      <Field label="Description" hint="What these keys are for, e.g. “Production web app”.">
        {(props) => <input {...props} className="input" required value={description} onChange={(e) => setDescription(e.target.value)} />}
      </Field>
      <Field label="Expires after">
        {(props) => (
          <select {...props} className="input" value={expiry} onChange={(e) => setExpiry(e.target.value)}>
            {EXPIRIES.map((x) => (
              <option key={x.label} value={String(x.millis)}>
                {x.label}
              </option>
            ))}
          </select>
        )}
      </Field>
      <fieldset className="fieldset">
        <legend>Keys in this set</legend>
        <Toggle label="Publishable client key" hint="For browsers and mobile apps." checked={client} onChange={setClient} />
        <Toggle label="Secret server key" hint="For your servers only." checked={server} onChange={setServer} />
        <Toggle label="Super secret admin key" hint="Changes project settings: keep it out of apps." checked={admin} onChange={setAdmin} />
      </fieldset>
      <ActionStatus error={!client && !server && !admin ? "Choose at least one key." : create.error} />
      <button type="submit" className="button" disabled={create.pending || (!client && !server && !admin)}>
        {create.pending ? "Creating…" : "Create keys"}
      </button>
    </form>
  );
}
