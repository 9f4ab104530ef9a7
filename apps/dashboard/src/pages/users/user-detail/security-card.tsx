/** Password (set a new one) and two-factor (see whether it is on, turn it off). */
import type { ServerUser } from "@latchkey/js";
import { useState } from "react";
import { useAction } from "../../../lib/use-action.ts";
import { Field } from "../../../ui/field.tsx";
import { Card } from "../../../ui/page.tsx";
import { ActionStatus } from "../../../ui/states.tsx";
import { ConfirmButton } from "../../../ui/confirm-button.tsx";

export function SecurityCard({ user, onChanged }: { user: ServerUser; onChanged: () => void }) {
  const [password, setPassword] = useState("");
  const setNew = useAction(async () => {
    await user.update({ password });
    setPassword("");
    onChanged();
    return "Password set. The user signs in with it from now on.";
  });
  return (
    <Card title="Password and two-factor">
      <div className="split">
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            void setNew.run();
          }}
        >
          <h3>Password</h3>
          <p className="muted">{user.hasPassword ? "This user has a password." : "This user has no password."}</p>
          <Field label="New password">
            {(props) => (
              <input
                {...props}
                className="input"
                type="password"
                autoComplete="new-password"
                required
                value={password}
                onChange={(e) => setPassword(e.target.value)}
              />
            )}
          </Field>
          <div className="row-actions">
            <button type="submit" className="button" disabled={setNew.pending}>
              {setNew.pending ? "Setting…" : "Set password"}
            </button>
          </div>
          <ActionStatus error={setNew.error} done={setNew.done} />
        </form>
        <div className="form">
          <h3>Two-factor authentication</h3>
          <p>
            {user.isMultiFactorRequired ? <span className="badge badge-success">On</span> : <span className="badge">Off</span>}{" "}
            <span className="muted">
              {user.isMultiFactorRequired ? "A code from an authenticator app is asked at sign-in." : "Only the user can turn it on."}
            </span>
          </p>
          {user.isMultiFactorRequired ? (
            <div className="row-actions">
              <ConfirmButton
                label="Turn off two-factor"
                small={false}
                title="Turn off two-factor authentication?"
                confirmLabel="Turn it off"
                pendingLabel="Turning off…"
                action={async () => {
                  await user.update({ totpMultiFactorSecret: null });
                  onChanged();
                }}
              >
                <p>The user then signs in with their password alone, until they turn it on again.</p>
              </ConfirmButton>
            </div>
          ) : null}
        </div>
      </div>
    </Card>
  );
}
