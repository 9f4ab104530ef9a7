/** A short list of users, each a link to their page, with when they signed up or were last seen. */
import type { ServerUser } from "@latchkey/js";
import { Link } from "react-router";
import { formatAgo } from "./format.ts";

export function RecentUsers({
  users,
  projectId,
  label,
  when,
}: {
  users: ServerUser[];
  projectId: string;
  label: string;
  when: (user: ServerUser) => { verb: string; at: Date };
}) {
  return (
    <ul className="recent-users" aria-label={label}>
      {users.map((user) => {
        const { verb, at } = when(user);
        const name = user.displayName ?? user.primaryEmail ?? (user.isAnonymous ? "Anonymous user" : "Unnamed user");
        return (
          <li key={user.id}>
            <span className="recent-users-avatar" aria-hidden="true">
              {user.profileImageUrl ? <img src={user.profileImageUrl} alt="" /> : initial(name)}
            </span>
            <span className="recent-users-who">
              <Link to={`/projects/${projectId}/users/${user.id}`}>{name}</Link>
              {user.displayName && user.primaryEmail ? <span className="muted small">{user.primaryEmail}</span> : null}
            </span>
            <span className="muted small recent-users-when">
              {verb}{" "}
              <time dateTime={at.toISOString()} title={at.toLocaleString()}>
                {formatAgo(at)}
              </time>
            </span>
          </li>
        );
      })}
    </ul>
  );
}

function initial(name: string): string {
  return (name.trim()[0] ?? "?").toUpperCase();
}
