/** The account page: profile, e-mails, password, passkeys, two-factor, connected accounts, e-mail notifications, active sessions, API keys (when the project allows them), teams, billing (for a user with something to bill) and (when the project allows it) deleting the account. */
import { KnownErrors, type CurrentUser } from "@latchkey/js";
import { useCallback, useState, type FormEvent } from "react";
import { useStackApp } from "../provider.tsx";
import { useProject } from "../use-project.ts";
import { useUser } from "../use-user.ts";
import { UserApiKeysSection } from "./api-keys-section.tsx";
import { BillingSection } from "./billing-section.tsx";
import { ConnectedAccountsSection } from "./connected-accounts-section.tsx";
import { EmailsSection } from "./emails-section.tsx";
import { MfaSection } from "./mfa-section.tsx";
import { NotificationsSection } from "./notifications-section.tsx";
import { PasskeysSection } from "./passkeys-section.tsx";
import { Alert, Card, ConfirmedAction, Field, Section, useAction, useRead } from "./parts.tsx";
import { TeamsSection } from "./teams-section.tsx";

export function AccountSettings() {
  const user = useUser({ or: "redirect" });
  const project = useProject();
  return (
    <Card title="Account settings" wide>
      <ProfileSection user={user} />
      <EmailsSection user={user} />
      <PasswordSection user={user} />
      {/* Shown while the project has passkeys off too, if the user has some: they can still remove them. */}
      {project.config.passkeyEnabled || user.passkeyAuthEnabled ? <PasskeysSection user={user} /> : null}
      <MfaSection user={user} />
      {/* The server lists no accounts at providers the project has turned off: with none on, there is nothing to show. */}
      {project.config.oauthProviders.length > 0 ? <ConnectedAccountsSection user={user} /> : null}
      <NotificationsSection user={user} />
      <SessionsSection user={user} />
      {project.config.allowUserApiKeys ? <UserApiKeysSection user={user} /> : null}
      <TeamsSection user={user} />
      <BillingSection user={user} />
      {project.config.clientUserDeletionEnabled ? <DeleteSection user={user} /> : null}
    </Card>
  );
}

function ProfileSection({ user }: { user: CurrentUser }) {
  const [displayName, setDisplayName] = useState(user.displayName ?? "");
  const [saved, setSaved] = useState(false);
  const save = useAction(async () => {
    await user.update({ displayName: displayName.trim() === "" ? null : displayName.trim() });
    setSaved(true);
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSaved(false);
    void save.run();
  };
  return (
    <Section title="Profile">
      <form className="lk-form" onSubmit={onSubmit}>
        <p className="lk-muted">Signed in as {user.primaryEmail ?? "a user without an e-mail"}</p>
        <Field label="Display name" value={displayName} maxLength={256} onChange={(e) => setDisplayName(e.target.value)} />
        <Alert>{save.error}</Alert>
        {saved && !save.error ? (
          <p className="lk-success" role="status">
            Saved.
          </p>
        ) : null}
        <button className="lk-button" type="submit" disabled={save.busy}>
          Save
        </button>
      </form>
    </Section>
  );
}

/** Said at the current-password field when it does not match the account's password. */
const CURRENT_PASSWORD_WRONG = "Your current password is incorrect.";

function PasswordSection({ user }: { user: CurrentUser }) {
  const [current, setCurrent] = useState("");
  const [currentWrong, setCurrentWrong] = useState(false);
  const [next, setNext] = useState("");
  const [done, setDone] = useState(false);
  const change = useAction(async () => {
    setCurrentWrong(false);
    const refusal = user.hasPassword
      ? await user.updatePassword({ oldPassword: current, newPassword: next })
      : await user.setPassword({ password: next });
    // The wire names a wrong old password PASSWORD_CONFIRMATION_MISMATCH, whose words ("Passwords do
    // not match.") fit a repeated password that differs: here, say what happened, at the field it concerns.
    if (refusal instanceof KnownErrors.PasswordConfirmationMismatch) {
      setCurrentWrong(true);
      return;
    }
    if (refusal) return refusal.message;
    setCurrent("");
    setNext("");
    setDone(true);
  });
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setDone(false);
    void change.run();
  };
  return (
    <Section title="Password">
      <form className="lk-form" onSubmit={onSubmit}>
        {user.hasPassword ? (
          <Field
            label="Current password"
            type="password"
            autoComplete="current-password"
            value={current}
            error={currentWrong ? CURRENT_PASSWORD_WRONG : null}
            onChange={(e) => {
              setCurrent(e.target.value);
              setCurrentWrong(false);
            }}
          />
        ) : null}
        <Field label="New password" type="password" autoComplete="new-password" value={next} onChange={(e) => setNext(e.target.value)} />
        <Alert>{change.error}</Alert>
        {done && !change.error ? (
          <p className="lk-success" role="status">
            Password changed.
          </p>
        ) : null}
        <button className="lk-button" type="submit" disabled={change.busy}>
          {user.hasPassword ? "Change password" : "Set password"}
        </button>
      </form>
    </Section>
  );
}

function SessionsSection({ user }: { user: CurrentUser }) {
  const { value: sessions, error, reload } = useRead(useCallback(() => user.getActiveSessions(), [user]));
  const revoke = useAction(async (id: string) => {
    await user.revokeSession(id);
    reload();
  });
  return (
    <Section title="Active sessions">
      <Alert>{error ?? revoke.error}</Alert>
      {sessions === null ? (
        <p className="lk-muted">Loading…</p>
      ) : (
        <ul className="lk-list">
          {sessions.map((session) => (
            <li key={session.id} className="lk-list-item">
              <span>
                {session.isCurrentSession ? "This device" : "Another device"} · signed in {session.createdAt.toLocaleString()}
                {session.lastUsedAt ? ` · last used ${session.lastUsedAt.toLocaleString()}` : ""}
              </span>
              {session.isCurrentSession ? null : (
                <button
                  className="lk-button lk-button-secondary"
                  type="button"
                  aria-label={`Revoke the session signed in ${session.createdAt.toLocaleString()}`}
                  disabled={revoke.busy}
                  onClick={() => void revoke.run(session.id)}
                >
                  Revoke
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}

function DeleteSection({ user }: { user: CurrentUser }) {
  const app = useStackApp();
  const remove = useAction(async () => {
    await user.delete();
    await app.redirectToAfterSignOut();
  });
  return (
    <Section title="Delete account">
      <p className="lk-muted">This deletes your account and everything in it. It cannot be undone.</p>
      <Alert>{remove.error}</Alert>
      <ConfirmedAction label="Delete account…" confirmLabel="Delete my account" busy={remove.busy} onConfirm={() => void remove.run()} />
    </Section>
  );
}
