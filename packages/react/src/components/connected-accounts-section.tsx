/**
 * Account settings: the user's accounts at the project's OAuth providers.
 * For each provider the project has enabled (the server lists no accounts at
 * others): the accounts connected (by the e-mail the provider gave), whether
 * each signs the user in, Disconnect (after a confirmation), and Connect,
 * which goes through the provider's page and back here
 * (user.linkConnectedAccount).
 */
import type { CurrentUser, OAuthProvider } from "@latchkey/js";
import { useId, useRef, useState } from "react";
import { useProject } from "../use-project.ts";
import { OAuthProviderMark, oauthProviderName } from "./oauth-provider-marks.tsx";
import { Alert, ConfirmedAction, Section, useAction, useFocusAfterRender, useLoaded } from "./parts.tsx";
import { useLeavingAction } from "./use-leaving-action.ts";

/** Why the only way in cannot be turned off or disconnected. */
const ONLY_WAY_IN = "This account is your only way to sign in, so it stays until you set a password or add another way to sign in.";

export function ConnectedAccountsSection({ user }: { user: CurrentUser }) {
  const { config } = useProject();
  const entry = user._oauthProvidersEntry();
  const { value: accounts, error: loadError } = useLoaded(entry);
  const [notice, setNotice] = useState<string | null>(null);
  // One for the section: a click on one Connect starts a flow, and the others wait for its outcome.
  const [connectingTo, setConnectingTo] = useState<string | null>(null);
  const connect = useLeavingAction((provider: string) => {
    setNotice(null);
    setConnectingTo(provider);
    return user.linkConnectedAccount(provider);
  });
  const signInAccounts = (accounts ?? []).filter((account) => account.allowSignIn);
  // The user's only way in: without it they could not sign in again (the provider would then sign up a new user, or be refused).
  const lastWayIn =
    !user.hasPassword && !user.passkeyAuthEnabled && !user.otpAuthEnabled && signInAccounts.length === 1 ? signInAccounts[0]!.id : null;
  return (
    <Section title="Connected accounts">
      <p className="lk-muted">Accounts at other services that you can sign in with, or that this app may use on your behalf.</p>
      {loadError ? (
        <div className="lk-form">
          <Alert>{loadError}</Alert>
          <button className="lk-button lk-button-secondary" type="button" onClick={() => entry.invalidate()}>
            Try again
          </button>
        </div>
      ) : null}
      {/* Mounted empty, so that screen readers announce the text when it is set. */}
      <div role="status">{notice ? <p className="lk-success">{notice}</p> : null}</div>
      {accounts === null ? (
        loadError ? null : (
          <p className="lk-muted" role="status">
            Loading…
          </p>
        )
      ) : (
        config.oauthProviders.map(({ id: provider }) => (
          <ProviderAccounts
            key={provider}
            provider={provider}
            accounts={accounts.filter((account) => account.type === provider)}
            lastWayIn={lastWayIn}
            connecting={connect.busy}
            connectError={connectingTo === provider ? connect.error : null}
            onConnect={() => void connect.start(provider)}
            onNotice={setNotice}
          />
        ))
      )}
    </Section>
  );
}

function ProviderAccounts({
  provider,
  accounts,
  lastWayIn,
  connecting,
  connectError,
  onConnect,
  onNotice,
}: {
  provider: string;
  accounts: OAuthProvider[];
  /** The id of the account that is the user's only way to sign in, if there is one. */
  lastWayIn: string | null;
  connecting: boolean;
  connectError: string | null;
  onConnect(): void;
  onNotice(text: string | null): void;
}) {
  const name = oauthProviderName(provider);
  const headingId = `lk-connected-${provider}`;
  const heading = useRef<HTMLHeadingElement>(null);
  const connectButton = useRef<HTMLButtonElement>(null);
  const connectLabel = accounts.length === 0 ? "Connect" : "Connect another";
  const afterRemoval = () => {
    onNotice(`${name} account disconnected.`);
    // The item and its focused button are about to go: Connect (or the heading) stays.
    (connectButton.current ?? heading.current)?.focus();
  };
  return (
    <section className="lk-subsection" aria-labelledby={headingId}>
      <h3 id={headingId} ref={heading} tabIndex={-1} className="lk-row">
        <OAuthProviderMark id={provider} />
        {name}
      </h3>
      {accounts.length === 0 ? (
        <p className="lk-muted">Not connected.</p>
      ) : (
        <ul className="lk-list" aria-label={`Your ${name} accounts`}>
          {accounts.map((account) => (
            <AccountItem
              key={account.id}
              account={account}
              providerName={name}
              onlyWayIn={account.id === lastWayIn}
              onNotice={onNotice}
              onRemoved={afterRemoval}
            />
          ))}
        </ul>
      )}
      <Alert>{connectError}</Alert>
      <span className="lk-row lk-connect">
        <button
          ref={connectButton}
          className="lk-button lk-button-secondary"
          type="button"
          aria-label={`${connectLabel} ${name} account`}
          disabled={connecting}
          onClick={onConnect}
        >
          {connectLabel}
        </button>
      </span>
    </section>
  );
}

function AccountItem({
  account,
  providerName,
  onlyWayIn,
  onNotice,
  onRemoved,
}: {
  account: OAuthProvider;
  providerName: string;
  onlyWayIn: boolean;
  onNotice(text: string | null): void;
  onRemoved(): void;
}) {
  const label = account.email ?? `${providerName} account`;
  const checkbox = useRef<HTMLInputElement>(null);
  const reasonId = useId();
  const focusAfterRender = useFocusAfterRender();
  const toggle = useAction(async () => {
    onNotice(null);
    const allowSignIn = !account.allowSignIn;
    try {
      const result = await account.update({ allowSignIn });
      if (result.status === "error") return result.error.message;
      onNotice(allowSignIn ? `You can now sign in with ${label}.` : `${label} no longer signs you in.`);
    } finally {
      // The box is disabled while saving, which takes focus from it.
      focusAfterRender(() => checkbox.current);
    }
  });
  const remove = useAction(async () => {
    onNotice(null);
    await account.delete();
    onRemoved();
  });
  return (
    <li className="lk-list-item">
      <span>
        {label}
        {account.allowSignIn ? <span className="lk-badge">Sign-in</span> : null}
      </span>
      <span className="lk-row">
        <label className="lk-check">
          <input
            ref={checkbox}
            type="checkbox"
            checked={account.allowSignIn}
            disabled={toggle.busy || onlyWayIn}
            aria-describedby={onlyWayIn ? reasonId : undefined}
            onChange={() => void toggle.run()}
          />
          Use for sign-in
        </label>
        <ConfirmedAction
          label="Disconnect…"
          ariaLabel={`Disconnect ${label}`}
          confirmLabel="Disconnect"
          busy={remove.busy}
          disabled={onlyWayIn}
          describedBy={onlyWayIn ? reasonId : undefined}
          onConfirm={() => void remove.run()}
        />
      </span>
      {onlyWayIn ? (
        <p id={reasonId} className="lk-muted lk-item-note">
          {ONLY_WAY_IN}
        </p>
      ) : null}
      <Alert>{toggle.error ?? remove.error}</Alert>
    </li>
  );
}
