/**
 * API keys in account settings: the user's own (when the project allows user
 * keys) and, in a team's panel, the team's (for members holding
 * `$manage_api_keys`, when the project allows team keys). A new key is shown
 * whole once, right after its creation, with a copy button; the list shows
 * each key's last four characters only, since the server keeps no more.
 */
import type { ApiKey, ApiKeyCreationOptions, CurrentUser, Team } from "@latchkey/js";
import { useCallback, useId, useState } from "react";
import { Alert, ConfirmedAction, Field, Section, Subsection, submitTo, useAction, useLoaded, useRead } from "./parts.tsx";

const DAY = 24 * 60 * 60 * 1000;
/** The expiry choices, in days from creation; null never expires. */
const EXPIRIES: readonly { label: string; days: number | null }[] = [
  { label: "Never", days: null },
  { label: "1 day", days: 1 },
  { label: "7 days", days: 7 },
  { label: "30 days", days: 30 },
  { label: "90 days", days: 90 },
  { label: "365 days", days: 365 },
];

export function UserApiKeysSection({ user }: { user: CurrentUser }) {
  // The SDK's cached list: its own creations and revocations invalidate it, and it re-renders.
  const { value, error } = useLoaded(user._apiKeysEntry());
  const create = useCallback((options: ApiKeyCreationOptions) => user.createApiKey(options), [user]);
  return (
    <Section title="API keys">
      <p className="lk-muted">Keys let your programs and tools act as you. Keep them secret.</p>
      <ApiKeysPanel keys={value} loadError={error} create={create} changed={noop} />
    </Section>
  );
}

export function TeamApiKeys({ team }: { team: Team }) {
  // A team's keys are not cached by the SDK: read here, and again after each change made here.
  const { value: keys, error: loadError, reload } = useRead(useCallback(() => team.listApiKeys(), [team]));
  const create = useCallback(
    async (options: ApiKeyCreationOptions) => {
      const key = await team.createApiKey(options);
      reload();
      return key;
    },
    [team, reload],
  );
  return (
    <Subsection title="API keys">
      <p className="lk-muted">Keys let programs act for {team.displayName}. Keep them secret.</p>
      <ApiKeysPanel keys={keys} loadError={loadError} create={create} changed={reload} />
    </Subsection>
  );
}

function noop() {}

function ApiKeysPanel({
  keys,
  loadError,
  create,
  changed,
}: {
  keys: readonly ApiKey[] | null;
  loadError: string | null;
  create(options: ApiKeyCreationOptions): Promise<{ value: string }>;
  /** A key was revoked (the owner's list is read again). */
  changed(): void;
}) {
  const [created, setCreated] = useState<string | null>(null);
  return (
    <>
      <Alert>{loadError}</Alert>
      {created ? <NewKey value={created} onDone={() => setCreated(null)} /> : <CreateForm create={create} onCreated={setCreated} />}
      {keys === null ? (
        loadError ? null : (
          <p className="lk-muted">Loading…</p>
        )
      ) : keys.length === 0 ? (
        <p className="lk-muted">No API keys yet.</p>
      ) : (
        <ul className="lk-list" aria-label="API keys">
          {keys.map((key) => (
            <KeyItem key={key.id} apiKey={key} changed={changed} />
          ))}
        </ul>
      )}
    </>
  );
}

function CreateForm({
  create,
  onCreated,
}: {
  create(options: ApiKeyCreationOptions): Promise<{ value: string }>;
  onCreated(value: string): void;
}) {
  const [description, setDescription] = useState("");
  const [days, setDays] = useState("90");
  const expiryId = useId();
  const submit = useAction(async () => {
    const chosen = days === "" ? null : Number(days);
    const key = await create({ description: description.trim(), expiresAt: chosen === null ? null : new Date(Date.now() + chosen * DAY) });
    setDescription("");
    onCreated(key.value);
  });
  return (
    <form className="lk-form" onSubmit={submitTo(submit.run)}>
      <Field label="Key description" required maxLength={256} value={description} onChange={(e) => setDescription(e.target.value)} />
      <div className="lk-field">
        <label htmlFor={expiryId}>Expires</label>
        <select id={expiryId} className="lk-input" value={days} onChange={(e) => setDays(e.target.value)}>
          {EXPIRIES.map((expiry) => (
            <option key={expiry.label} value={expiry.days ?? ""}>
              {expiry.days === null ? expiry.label : `In ${expiry.label}`}
            </option>
          ))}
        </select>
      </div>
      <Alert>{submit.error}</Alert>
      <span className="lk-row">
        <button className="lk-button" type="submit" disabled={submit.busy || description.trim() === ""}>
          Create API key
        </button>
      </span>
    </form>
  );
}

/** The whole key, this once: the server answers only its last four characters afterwards. */
function NewKey({ value, onDone }: { value: string; onDone(): void }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      // The clipboard needs a secure context or the page's permission; the key stays selectable.
      setCopied("failed");
    }
  };
  return (
    <div className="lk-form" role="group" aria-label="New API key">
      <p className="lk-success" role="status">
        Your new API key is shown only this once. Copy it and keep it somewhere safe.
      </p>
      <code className="lk-secret" aria-label="API key value">
        {value}
      </code>
      {copied === "failed" ? <Alert>The key could not be copied. Select it and copy it by hand.</Alert> : null}
      <span className="lk-row">
        <button className="lk-button" type="button" onClick={() => void copy()}>
          {copied === "yes" ? "Copied" : "Copy key"}
        </button>
        <button className="lk-button lk-button-secondary" type="button" onClick={onDone}>
          Done
        </button>
      </span>
    </div>
  );
}

function KeyItem({ apiKey, changed }: { apiKey: ApiKey; changed(): void }) {
  const revoke = useAction(async () => {
    await apiKey.revoke();
    changed();
  });
  const why = apiKey.whyInvalid();
  return (
    <li className="lk-list-item">
      <span>
        {apiKey.description}
        {why ? <span className="lk-badge">{why === "expired" ? "Expired" : "Revoked"}</span> : null}
        <br />
        <span className="lk-muted">
          Ends in <code className="lk-secret">{apiKey.value.lastFour}</code> · created {apiKey.createdAt.toLocaleDateString()} ·{" "}
          {apiKey.expiresAt ? `expires ${apiKey.expiresAt.toLocaleDateString()}` : "never expires"} ·{" "}
          {apiKey.lastUsedAt ? `last used ${apiKey.lastUsedAt.toLocaleString()}` : "never used"}
        </span>
      </span>
      {why === "manually-revoked" ? null : (
        <ConfirmedAction
          label="Revoke…"
          ariaLabel={`Revoke ${apiKey.description}`}
          confirmLabel="Revoke key"
          busy={revoke.busy}
          onConfirm={() => void revoke.run()}
        />
      )}
      <Alert>{revoke.error}</Alert>
    </li>
  );
}
