/** The second click before a draft goes to the whole user base: it says how many users that is. */
import type { StackAdminApp } from "@latchkey/js";
import { useLoad } from "../../lib/use-load.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { ActionStatus, Loaded } from "../../ui/states.tsx";

interface Props {
  app: StackAdminApp;
  open: boolean;
  draftName: string;
  pending: boolean;
  error: string | null;
  onClose: () => void;
  onConfirm: () => void;
}

export function SendAllDialog(props: Props) {
  return (
    <Dialog open={props.open} title="Send to every user?" onClose={props.onClose}>
      {/* Mounted only while open, so the count is read afresh each time. */}
      {props.open ? <SendAllBody {...props} /> : null}
    </Dialog>
  );
}

function SendAllBody({ app, draftName, pending, error, onClose, onConfirm }: Props) {
  const count = useLoad(() => app.getMetrics().then((m) => m.totalUsers), [app]);
  return (
    <>
      <Loaded load={count} label="Counting users">
        {(total) => (
          <p>
            “{draftName}” goes out at once to{" "}
            <strong>
              all {total} user{total === 1 ? "" : "s"}
            </strong>{" "}
            of this project (those without a primary e-mail, or who turned such mail off, are skipped). It cannot be called back.
          </p>
        )}
      </Loaded>
      <ActionStatus error={error} />
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={onClose}>
          Cancel
        </button>
        <button type="button" className="button" disabled={pending || count.status !== "ready"} onClick={onConfirm}>
          {pending ? "Sending…" : count.status === "ready" ? `Send to ${count.data} user${count.data === 1 ? "" : "s"}` : "Send"}
        </button>
      </div>
    </>
  );
}
