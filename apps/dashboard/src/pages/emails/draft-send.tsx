/** Sends a saved draft to every user or to chosen ones; the sent list then shows what became of each copy. */
import type { ServerUser, StackAdminApp } from "@latchkey/js";
import { useState } from "react";
import { Link } from "react-router";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";
import { Field } from "../../ui/field.tsx";
import { ActionStatus, Loaded } from "../../ui/states.tsx";
import { SendAllDialog } from "./send-all-dialog.tsx";

interface Props {
  app: StackAdminApp;
  draftId: string;
  draftName: string;
  unsaved: boolean;
  shared: boolean;
  /** The draft's "sent" mark changed: the list showing it should read it again. */
  onSent: () => void;
}

export function DraftSend({ app, draftId, draftName, unsaved, shared, onSent }: Props) {
  const [to, setTo] = useState<"all" | "chosen">("chosen");
  const [confirmingAll, setConfirmingAll] = useState(false);
  const [query, setQuery] = useState("");
  const [chosen, setChosen] = useState<Map<string, ServerUser>>(new Map());
  const users = useLoad(() => app.listUsers({ query: query || undefined, limit: 20 }), [app, query]);
  const [sentTo, setSentTo] = useState<number | null>(null);
  const send = useAction(async () => {
    setSentTo(null);
    const sent = await app.sendEmail(to === "all" ? { draftId, allUsers: true } : { draftId, userIds: [...chosen.keys()] });
    setSentTo(sent.length);
    setConfirmingAll(false);
    onSent();
    return `Sent to ${sent.length} user${sent.length === 1 ? "" : "s"}.`;
  });
  const toggle = (user: ServerUser) =>
    setChosen((m) => {
      const next = new Map(m);
      if (next.has(user.id)) next.delete(user.id);
      else next.set(user.id, user);
      return next;
    });
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        if (to === "all") {
          send.reset();
          setConfirmingAll(true);
        } else void send.run();
      }}
    >
      <SendAllDialog
        app={app}
        open={confirmingAll}
        draftName={draftName}
        pending={send.pending}
        error={send.error}
        onClose={() => setConfirmingAll(false)}
        onConfirm={() => void send.run()}
      />
      <fieldset className="fieldset">
        <legend>Send to</legend>
        <label className="radio">
          <input type="radio" name="send-to" checked={to === "chosen"} onChange={() => setTo("chosen")} />
          <span>Chosen users ({chosen.size})</span>
        </label>
        <label className="radio">
          <input type="radio" name="send-to" checked={to === "all"} onChange={() => setTo("all")} />
          <span>Every user of the project</span>
        </label>
      </fieldset>
      {to === "chosen" ? (
        <>
          <Field label="Find users">
            {(p) => (
              <input
                {...p}
                className="input"
                type="search"
                value={query}
                onChange={(e) => setQuery(e.target.value)}
                placeholder="E-mail or name"
              />
            )}
          </Field>
          <Loaded load={users}>
            {(list) =>
              list.length === 0 ? (
                <p className="muted">{query ? "No users match." : "This project has no users yet."}</p>
              ) : (
                <ul className="user-picks">
                  {list.map((u) => (
                    <li key={u.id}>
                      <label>
                        <input type="checkbox" checked={chosen.has(u.id)} onChange={() => toggle(u)} />
                        <span>{u.primaryEmail ?? u.displayName ?? u.id}</span>
                      </label>
                    </li>
                  ))}
                </ul>
              )
            }
          </Loaded>
        </>
      ) : null}
      {shared ? (
        <p className="notice notice-warning">
          Drafts go out through your own SMTP server only.{" "}
          <Link to="../emails" relative="path">
            Set one up in the e-mail settings.
          </Link>
        </p>
      ) : null}
      {unsaved ? <p className="muted">Save the draft first: the saved version is what is sent.</p> : null}
      <ActionStatus error={confirmingAll ? null : send.error} done={send.done} />
      <div>
        <button type="submit" className="button" disabled={send.pending || unsaved || shared || (to === "chosen" && chosen.size === 0)}>
          {send.pending ? "Sending…" : to === "all" ? "Send to every user" : `Send to ${chosen.size} user${chosen.size === 1 ? "" : "s"}`}
        </button>
      </div>
      {sentTo !== null ? (
        <p className="muted">
          Users without an e-mail address, or who turned this kind of mail off, are skipped.{" "}
          <Link to="../emails-sent" relative="path">
            The sent e-mails list shows what became of each copy.
          </Link>
        </p>
      ) : null}
    </form>
  );
}
