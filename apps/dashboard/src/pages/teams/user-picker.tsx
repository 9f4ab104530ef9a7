/** Finds a user of the project by e-mail or name and picks one: for a team's creator and for adding a member. */
import type { ServerUser, StackAdminApp } from "@latchkey/js";
import { useState } from "react";
import { useDebounced } from "../../lib/use-debounced.ts";
import { useLoad } from "../../lib/use-load.ts";
import { Field } from "../../ui/field.tsx";
import { ErrorNotice } from "../../ui/states.tsx";

export function UserPicker({
  app,
  label,
  hint,
  picked,
  onPick,
  exclude = [],
}: {
  app: StackAdminApp;
  label: string;
  hint?: string;
  picked: ServerUser | null;
  onPick: (user: ServerUser | null) => void;
  /** Users not offered (e.g. the team's members). */
  exclude?: string[];
}) {
  const [query, setQuery] = useState("");
  const q = useDebounced(query.trim());
  const found = useLoad<ServerUser[]>(() => (q ? app.listUsers({ query: q, limit: 6 }) : Promise.resolve([])), [app, q]);
  if (picked)
    return (
      <div className="field">
        <span className="field-label">{label}</span>
        <div className="picked-user">
          <span>
            <strong>{picked.displayName ?? picked.primaryEmail ?? picked.id}</strong>
            {picked.displayName && picked.primaryEmail ? <span className="muted"> · {picked.primaryEmail}</span> : null}
          </span>
          <button type="button" className="button button-secondary button-small" onClick={() => onPick(null)}>
            Change
          </button>
        </div>
      </div>
    );
  const users = (found.data ?? []).filter((u) => !exclude.includes(u.id));
  return (
    <div className="user-picker">
      <Field label={label} hint={hint}>
        {(props) => (
          <input
            {...props}
            className="input"
            type="search"
            autoComplete="off"
            placeholder="Search by e-mail or name"
            value={query}
            onChange={(e) => setQuery(e.target.value)}
          />
        )}
      </Field>
      {found.status === "error" ? <ErrorNotice error={found.error} retry={found.reload} /> : null}
      {q && found.status === "ready" && users.length === 0 ? <p className="muted small">No user matches “{q}”.</p> : null}
      {users.length > 0 ? (
        <ul className="user-picker-results" aria-label="Matching users">
          {users.map((user) => (
            <li key={user.id}>
              <button type="button" className="button button-secondary button-small" onClick={() => onPick(user)}>
                Choose
              </button>
              <span>
                {user.primaryEmail ?? "No e-mail"}
                {user.displayName ? <span className="muted"> · {user.displayName}</span> : null}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
