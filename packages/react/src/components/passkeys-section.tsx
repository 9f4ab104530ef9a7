/**
 * Account settings: the user's passkeys — add one (the browser asks the user
 * to create it), rename, remove. A passkey that is the user's only way to
 * sign in cannot be removed here: they would be locked out. While the
 * project has passkeys off, the section only lists, renames and removes.
 *
 * Each step replaces the control the keyboard is on (Rename opens a form,
 * Save and Cancel close it, a removal takes the whole item away), so focus
 * moves each time to the control that now makes sense, and what happened is
 * said in a status line screen readers announce.
 */
import type { CurrentUser, Passkey, Project } from "@latchkey/js";
import { useRef, useState } from "react";
import { useProject } from "../use-project.ts";
import { passkeyErrorText } from "./passkey-button.tsx";
import { Alert, ConfirmedAction, Field, Section, submitTo, useAction, useFocusAfterRender, useLoaded } from "./parts.tsx";

/** Whether the user can sign in without a passkey: only the ways this project accepts count. */
export function hasOtherWayIn(user: CurrentUser, config: Project["config"]): boolean {
  return (
    (config.credentialEnabled && user.hasPassword) || (config.magicLinkEnabled && user.otpAuthEnabled) || user.oauthProviders.length > 0
  );
}

export function PasskeysSection({ user }: { user: CurrentUser }) {
  const { config } = useProject();
  // The SDK's cached list: its own writes invalidate it, and it re-renders.
  const { value: passkeys, error: loadError } = useLoaded(user._passkeysEntry());
  const [notice, setNotice] = useState<string | null>(null);
  const body = useRef<HTMLDivElement>(null);
  const addButton = useRef<HTMLButtonElement>(null);
  const focusAfterRender = useFocusAfterRender();
  const add = useAction(async () => {
    setNotice(null);
    try {
      const result = await user.registerPasskey();
      if (result.status === "error") return passkeyErrorText(result.error);
      setNotice("Passkey added. You can now sign in with it.");
    } finally {
      // The button is disabled while the browser's prompt is open, which takes focus from it.
      focusAfterRender(() => addButton.current);
    }
  });
  // A passkey cannot sign anyone in while the project has passkeys off: removing it then locks nobody out.
  const onlyWayIn = config.passkeyEnabled && passkeys !== null && passkeys.length === 1 && !hasOtherWayIn(user, config);
  const afterRemoval = () => {
    setNotice("Passkey removed.");
    // The item and its focused button are about to go; "Add a passkey" (or, with passkeys off, the heading) stays.
    const heading = body.current?.closest("section")?.querySelector("h2");
    if (heading) heading.tabIndex = -1;
    (addButton.current ?? heading)?.focus();
  };
  return (
    <Section title="Passkeys">
      <div ref={body}>
        <p className="lk-muted">Sign in with your fingerprint, face or screen lock instead of a password.</p>
        <Alert>{loadError ?? add.error}</Alert>
        {/* Mounted empty, so that screen readers announce the text when it is set. */}
        <div role="status">{notice && !add.error ? <p className="lk-success">{notice}</p> : null}</div>
        {passkeys === null ? (
          <p className="lk-muted">Loading…</p>
        ) : passkeys.length === 0 ? (
          <p className="lk-muted">You have no passkeys yet.</p>
        ) : (
          <ul className="lk-list" aria-label="Your passkeys">
            {passkeys.map((passkey) => (
              <PasskeyItem key={passkey.id} passkey={passkey} removable={!onlyWayIn} onNotice={setNotice} onRemoved={afterRemoval} />
            ))}
          </ul>
        )}
        {onlyWayIn ? (
          <p className="lk-muted">This passkey is your only way to sign in. Set a password or add another passkey before removing it.</p>
        ) : null}
        {config.passkeyEnabled ? (
          <span className="lk-row">
            <button ref={addButton} className="lk-button" type="button" disabled={add.busy} onClick={() => void add.run()}>
              Add a passkey
            </button>
          </span>
        ) : null}
      </div>
    </Section>
  );
}

function PasskeyItem({
  passkey,
  removable,
  onNotice,
  onRemoved,
}: {
  passkey: Passkey;
  removable: boolean;
  onNotice(text: string | null): void;
  onRemoved(): void;
}) {
  const [renaming, setRenaming] = useState<string | null>(null);
  const renameButton = useRef<HTMLButtonElement>(null);
  const form = useRef<HTMLFormElement>(null);
  // The form replaces the Rename button; when it closes, focus goes back to that button.
  const focusAfterRender = useFocusAfterRender();
  const closeForm = () => {
    setRenaming(null);
    focusAfterRender(() => renameButton.current);
  };
  const rename = useAction(async () => {
    onNotice(null);
    try {
      await passkey.update({ displayName: renaming!.trim() });
    } catch (error) {
      // Save was disabled while saving, which took focus from it: back to the name, to correct it.
      focusAfterRender(() => form.current?.querySelector("input"));
      throw error;
    }
    closeForm();
    onNotice("Passkey renamed.");
  });
  const remove = useAction(async () => {
    onNotice(null);
    await passkey.delete();
    onRemoved();
  });
  if (renaming !== null) {
    return (
      <li className="lk-list-item">
        <form ref={form} className="lk-form" onSubmit={submitTo(rename.run)}>
          <Field label="Passkey name" required maxLength={256} autoFocus value={renaming} onChange={(e) => setRenaming(e.target.value)} />
          <Alert>{rename.error}</Alert>
          <span className="lk-row">
            <button className="lk-button" type="submit" disabled={rename.busy || renaming.trim() === ""}>
              Save name
            </button>
            <button className="lk-button lk-button-secondary" type="button" onClick={closeForm}>
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
          ref={renameButton}
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
