/** Password (set a new one) and two-factor (see whether it is on, turn it off). */
import type { ServerUser } from "@latchkey/js";
import { useState } from "react";
import { useAction } from "../../../lib/use-action.ts";
import { Field } from "../../../ui/field.tsx";
import { Card } from "../../../ui/page.tsx";
import { ActionStatus } from "../../../ui/states.tsx";

export function SecurityCard({ user, onChanged }: { user: ServerUser; onChanged: () => void }) {
  const [password, setPassword] = useState("");
  const setNew = useAction(async () => {
    await user.update({ password });
    setPassword("");
    onChanged();
    return "Password set. The user signs in with it from now on.";
  });
  const turnOff = useAction(async () => {
    await user.update({ totpMultiFactorSecret: null });
    onChanged();
    return "Two-factor authentication is off.";
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
              <button type="button" className="button button-danger" disabled={turnOff.pending} onClick={() => void turnOff.run()}>
                Turn off two-factor
              </button>
            </div>
          ) : null}
          <ActionStatus error={turnOff.error} done={turnOff.done} />
        </div>
      </div>
    </Card>
  );
}
