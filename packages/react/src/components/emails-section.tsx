/** Account settings: the user's e-mail addresses — add, verify, make primary, remove. */
import type { CurrentUser } from "@latchkey/js";
import { useState } from "react";
import { useCacheSnapshot } from "../use-cache-entry.ts";
import { Alert, Field, Section, errorText, submitTo, useAction } from "./parts.tsx";

export function EmailsSection({ user }: { user: CurrentUser }) {
  // The SDK's cached list: its own writes below invalidate it, and it re-renders.
  const listed = useCacheSnapshot(user._contactChannelsEntry());
  const channels = listed.status === "ok" ? listed.value : null;
  const loadError = listed.status === "error" ? errorText(listed.error) : null;
  const [notice, setNotice] = useState<string | null>(null);

  const done = (message: string) => setNotice(message);
  const act = useAction(async (run: () => Promise<void>, message: string) => {
    setNotice(null);
    await run();
    done(message);
  });

  return (
    <Section title="Emails">
      <Alert>{loadError ?? act.error}</Alert>
      {notice && !act.error ? (
        <p className="lk-success" role="status">
          {notice}
        </p>
      ) : null}
      {channels === null ? (
        <p className="lk-muted">Loading…</p>
      ) : (
        <ul className="lk-list">
          {channels.map((channel) => (
            <li key={channel.id} className="lk-list-item">
              <span>
                {channel.value}
                {channel.isPrimary ? <span className="lk-badge">Primary</span> : null}
                <span className="lk-badge">{channel.isVerified ? "Verified" : "Not verified"}</span>
              </span>
              <span style={{ display: "flex", gap: 8 }}>
                {channel.isVerified ? null : (
                  <button
                    className="lk-button lk-button-secondary"
                    type="button"
                    aria-label={`Send a verification e-mail to ${channel.value}`}
                    disabled={act.busy}
                    onClick={() => void act.run(() => channel.sendVerificationEmail(), `We sent a verification link to ${channel.value}.`)}
                  >
                    Verify
                  </button>
                )}
                {channel.isPrimary || !channel.isVerified ? null : (
                  <button
                    className="lk-button lk-button-secondary"
                    type="button"
                    aria-label={`Make ${channel.value} the primary e-mail`}
                    disabled={act.busy}
                    onClick={() => void act.run(() => channel.update({ isPrimary: true }), `${channel.value} is now your primary e-mail.`)}
                  >
                    Make primary
                  </button>
                )}
                {channel.isPrimary ? null : (
                  <button
                    className="lk-button lk-button-secondary"
                    type="button"
                    aria-label={`Remove ${channel.value}`}
                    disabled={act.busy}
                    onClick={() => void act.run(() => channel.delete(), `${channel.value} was removed.`)}
                  >
                    Remove
                  </button>
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
      <AddEmailForm user={user} onAdded={(value) => done(`${value} was added. Verify it with the link we sent.`)} />
    </Section>
  );
}

function AddEmailForm({ user, onAdded }: { user: CurrentUser; onAdded(value: string): void }) {
  const [value, setValue] = useState("");
  const add = useAction(async () => {
    const email = value.trim();
    const channel = await user.createContactChannel({ type: "email", value: email, usedForAuth: false });
    await channel.sendVerificationEmail();
    setValue("");
    onAdded(email);
  });
  const onSubmit = submitTo(add.run);
  return (
    <form className="lk-form" onSubmit={onSubmit}>
      <Field
        label="Add an e-mail address"
        type="email"
        autoComplete="email"
        required
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
      <Alert>{add.error}</Alert>
      <button className="lk-button" type="submit" disabled={add.busy}>
        Add e-mail
      </button>
    </form>
  );
}
