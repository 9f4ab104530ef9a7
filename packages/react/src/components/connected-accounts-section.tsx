/**
 * Account settings: the user's accounts at the project's OAuth providers.
 * For each provider: the accounts connected (by the e-mail the provider
 * gave), whether each signs the user in, Disconnect (after a confirmation),
 * and Connect, which goes through the provider's page and back here
 * (user.linkConnectedAccount). Accounts at a provider the project has since
 * turned off are still listed, so they can be disconnected.
 */
import type { CurrentUser, OAuthProvider } from "@latchkey/js";
import { useRef, useState } from "react";
import { useProject } from "../use-project.ts";
import { useLeavingState } from "./oauth-button.tsx";
import { OAuthProviderMark, oauthProviderName } from "./oauth-provider-marks.tsx";
import { Alert, ConfirmedAction, Section, errorText, useAction, useFocusAfterRender, useLoaded } from "./parts.tsx";

export function ConnectedAccountsSection({ user }: { user: CurrentUser }) {
  const { config } = useProject();
  const { value: accounts, error: loadError } = useLoaded(user._oauthProvidersEntry());
  const [notice, setNotice] = useState<string | null>(null);
  const enabled = config.oauthProviders.map(({ id }) => id);
  const shown = [...new Set([...enabled, ...(accounts ?? []).map((account) => account.type)])];
  return (
    <Section title="Connected accounts">
      <p className="lk-muted">Accounts at other services that you can sign in with, or that this app may use on your behalf.</p>
      <Alert>{loadError}</Alert>
      {/* Mounted empty, so that screen readers announce the text when it is set. */}
      <div role="status">{notice ? <p className="lk-success">{notice}</p> : null}</div>
      {accounts === null ? (
        <p className="lk-muted">Loading…</p>
      ) : (
        shown.map((provider) => (
          <ProviderAccounts
            key={provider}
            user={user}
            provider={provider}
            connectable={enabled.includes(provider)}
            accounts={accounts.filter((account) => account.type === provider)}
            onNotice={setNotice}
          />
        ))
      )}
    </Section>
  );
}

function ProviderAccounts({
  user,
  provider,
  connectable,
  accounts,
  onNotice,
}: {
  user: CurrentUser;
  provider: string;
  connectable: boolean;
  accounts: OAuthProvider[];
  onNotice(text: string | null): void;
}) {
  const name = oauthProviderName(provider);
  const headingId = `lk-connected-${provider}`;
  const heading = useRef<HTMLHeadingElement>(null);
  const connectButton = useRef<HTMLButtonElement>(null);
  const [connecting, setConnecting] = useLeavingState();
  const [connectError, setConnectError] = useState<string | null>(null);
  const connect = async () => {
    onNotice(null);
    setConnectError(null);
    setConnecting(true);
    try {
      // Resolves only if the browser does not leave for the provider's page; it normally does.
      await user.linkConnectedAccount(provider);
    } catch (error) {
      setConnectError(errorText(error));
    }
    setConnecting(false);
  };
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
            <AccountItem key={account.id} account={account} providerName={name} onNotice={onNotice} onRemoved={afterRemoval} />
          ))}
        </ul>
      )}
      <Alert>{connectError}</Alert>
      {connectable ? (
        <span className="lk-row lk-connect">
          <button
            ref={connectButton}
            className="lk-button lk-button-secondary"
            type="button"
            aria-label={`${connectLabel} ${name} account`}
            disabled={connecting}
            onClick={() => void connect()}
          >
            {connectLabel}
          </button>
        </span>
      ) : null}
    </section>
  );
}

function AccountItem({
  account,
  providerName,
  onNotice,
  onRemoved,
}: {
  account: OAuthProvider;
  providerName: string;
  onNotice(text: string | null): void;
  onRemoved(): void;
}) {
  const label = account.email ?? `${providerName} account`;
  const checkbox = useRef<HTMLInputElement>(null);
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
          <input ref={checkbox} type="checkbox" checked={account.allowSignIn} disabled={toggle.busy} onChange={() => void toggle.run()} />
          Use for sign-in
        </label>
        <ConfirmedAction
          label="Disconnect…"
          ariaLabel={`Disconnect ${label}`}
          confirmLabel="Disconnect"
          busy={remove.busy}
          onConfirm={() => void remove.run()}
        />
      </span>
      <Alert>{toggle.error ?? remove.error}</Alert>
    </li>
  );
}
