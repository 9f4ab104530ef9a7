/** Deleting the user, after the owner types their e-mail (or ID) to confirm; then back to the users list. */
import type { ServerUser } from "@latchkey/js";
import { useState } from "react";
import { useNavigate } from "react-router";
import { useAction } from "../../../lib/use-action.ts";
import { Dialog } from "../../../ui/dialog.tsx";
import { Field } from "../../../ui/field.tsx";
import { Card } from "../../../ui/page.tsx";
import { ActionStatus } from "../../../ui/states.tsx";

export function DeleteUserCard({ user, usersPath }: { user: ServerUser; usersPath: string }) {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState("");
  const expected = user.primaryEmail ?? user.id;
  const remove = useAction(async () => {
    await user.delete();
    void navigate(usersPath, { replace: true });
  });
  return (
    <Card title="Delete user">
      <div className="danger-zone">
        <p className="muted">Deletes the user, their sessions, contact channels and sign-in methods. This cannot be undone.</p>
        <button type="button" className="button button-danger" onClick={() => (setTyped(""), setConfirming(true))}>
          Delete user
        </button>
      </div>
      <Dialog open={confirming} title="Delete this user?" onClose={() => setConfirming(false)}>
        <form
          className="form"
          onSubmit={(event) => {
            event.preventDefault();
            if (typed === expected) void remove.run();
          }}
        >
          <p>
            Type <strong className="mono">{expected}</strong> to delete this user for good.
          </p>
          <Field label="Confirm">
            {(props) => <input {...props} className="input" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />}
          </Field>
          <ActionStatus error={remove.error} />
          <div className="dialog-actions">
            <button type="button" className="button button-secondary" onClick={() => setConfirming(false)}>
              Cancel
            </button>
            <button type="submit" className="button button-danger" disabled={typed !== expected || remove.pending}>
              {remove.pending ? "Deleting…" : "Delete user"}
            </button>
          </div>
        </form>
      </Dialog>
    </Card>
  );
}
