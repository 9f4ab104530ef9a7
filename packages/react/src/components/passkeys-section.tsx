/**
 * Account settings: the user's passkeys — add one (the browser asks the user
 * to create it), rename, remove. A passkey that is the user's only way to
 * sign in cannot be removed here: they would be locked out.
 */
import type { CurrentUser, Passkey } from "@latchkey/js";
import { useState } from "react";
import { passkeyErrorText } from "./passkey-button.tsx";
import { Alert, ConfirmedAction, Field, Section, submitTo, useAction, useLoaded } from "./parts.tsx";

export function PasskeysSection({ user }: { user: CurrentUser }) {
  // The SDK's cached list: its own writes invalidate it, and it re-renders.
  const { value: passkeys, error: loadError } = useLoaded(user._passkeysEntry());
  const [notice, setNotice] = useState<string | null>(null);
  const add = useAction(async () => {
    setNotice(null);
    const result = await user.registerPasskey();
    if (result.status === "error") return passkeyErrorText(result.error);
    setNotice("Passkey added. You can now sign in with it.");
  });
  const otherSignInMethods = user.hasPassword || user.otpAuthEnabled || user.oauthProviders.length > 0;
  const onlyWayIn = passkeys !== null && passkeys.length === 1 && !otherSignInMethods;
  return (
    <Section title="Passkeys">
      <p className="lk-muted">Sign in with your fingerprint, face or screen lock instead of a password.</p>
      <Alert>{loadError ?? add.error}</Alert>
      {notice && !add.error ? (
        <p className="lk-success" role="status">
          {notice}
        </p>
      ) : null}
      {passkeys === null ? (
        <p className="lk-muted">Loading…</p>
      ) : passkeys.length === 0 ? (
        <p className="lk-muted">You have no passkeys yet.</p>
      ) : (
        <ul className="lk-list" aria-label="Your passkeys">
          {passkeys.map((passkey) => (
            <PasskeyItem key={passkey.id} passkey={passkey} removable={!onlyWayIn} />
          ))}
        </ul>
      )}
      {onlyWayIn ? (
        <p className="lk-muted">This passkey is your only way to sign in. Set a password or add another passkey before removing it.</p>
      ) : null}
      <span className="lk-row">
        <button className="lk-button" type="button" disabled={add.busy} onClick={() => void add.run()}>
          Add a passkey
        </button>
      </span>
    </Section>
  );
}

function PasskeyItem({ passkey, removable }: { passkey: Passkey; removable: boolean }) {
  const [renaming, setRenaming] = useState<string | null>(null);
  const rename = useAction(async () => {
    await passkey.update({ displayName: renaming!.trim() });
    setRenaming(null);
  });
  const remove = useAction(() => passkey.delete());
  if (renaming !== null) {
    return (
      <li className="lk-list-item">
        <form className="lk-form" onSubmit={submitTo(rename.run)}>
          <Field label="Passkey name" required maxLength={256} value={renaming} onChange={(e) => setRenaming(e.target.value)} />
          <Alert>{rename.error}</Alert>
          <span className="lk-row">
            <button className="lk-button" type="submit" disabled={rename.busy || renaming.trim() === ""}>
              Save name
            </button>
            <button className="lk-button lk-button-secondary" type="button" onClick={() => setRenaming(null)}>
              Cancel
            </button>
          </span>
        </form>
      </li>
    );
  }
  return (
    <li className="lk-list-item">
      <span>
        {passkey.displayName}
        {passkey.backedUp ? <span className="lk-badge">Synced</span> : null}
        <br />
        <span className="lk-muted">
          Added {passkey.createdAt.toLocaleDateString()} ·{" "}
          {passkey.lastUsedAt ? `last used ${passkey.lastUsedAt.toLocaleString()}` : "not used yet"}
        </span>
      </span>
      <span className="lk-row">
        <button
          className="lk-button lk-button-secondary"
          type="button"
          aria-label={`Rename ${passkey.displayName}`}
          onClick={() => setRenaming(passkey.displayName)}
        >
          Rename
        </button>
        {removable ? (
          <ConfirmedAction
            label="Remove…"
            ariaLabel={`Remove ${passkey.displayName}`}
            confirmLabel="Remove passkey"
            busy={remove.busy}
            onConfirm={() => void remove.run()}
          />
        ) : null}
      </span>
      <Alert>{remove.error}</Alert>
    </li>
  );
}
