/** Creates a user: e-mail, display name, an optional password, and whether the e-mail counts as verified. */
import type { ServerUser, StackAdminApp } from "@latchkey/js";
import { useState, type FormEvent } from "react";
import { useAction } from "../../lib/use-action.ts";
import { Field, Toggle } from "../../ui/field.tsx";
import { ActionStatus } from "../../ui/states.tsx";

export function NewUserForm({
  app,
  onCreated,
  onCancel,
}: {
  app: StackAdminApp;
  onCreated: (user: ServerUser) => void;
  onCancel: () => void;
}) {
  const [email, setEmail] = useState("");
  const [displayName, setDisplayName] = useState("");
  const [password, setPassword] = useState("");
  const [verified, setVerified] = useState(false);
  const create = useAction(async () => {
    const user = await app.createUser({
      primaryEmail: email.trim(),
      // The address is how they sign in (with the password, or with a code).
      primaryEmailAuthEnabled: true,
      primaryEmailVerified: verified,
      ...(displayName.trim() ? { displayName: displayName.trim() } : {}),
      ...(password ? { password } : {}),
    });
    onCreated(user);
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void create.run();
  };
  return (
    <form className="form" onSubmit={submit}>
      <Field label="E-mail">
        {(props) => <input {...props} className="input" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}
      </Field>
      <Field label="Display name" hint="Optional.">
        {(props) => <input {...props} className="input" value={displayName} onChange={(e) => setDisplayName(e.target.value)} />}
      </Field>
      <Field label="Password" hint="Optional: without one, they sign in with a code sent to their e-mail.">
        {(props) => (
          <input
            {...props}
            className="input"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        )}
      </Field>
      <Toggle label="E-mail verified" hint="Mark the address as already confirmed." checked={verified} onChange={setVerified} />
      <ActionStatus error={create.error} />
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button" disabled={create.pending}>
          {create.pending ? "Creating…" : "Create user"}
        </button>
      </div>
    </form>
  );
}
