/** One page of users as a table: who they are, their e-mail, when they joined and were last seen, how they sign in. */
import type { ServerUser } from "@latchkey/js";
import { Link } from "react-router";
import { Table } from "../../ui/table.tsx";

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

function signInMethods(user: ServerUser): string[] {
  const methods: string[] = [];
  if (user.hasPassword) methods.push("Password");
  if (user.otpAuthEnabled) methods.push("E-mail code");
  if (user.passkeyAuthEnabled) methods.push("Passkey");
  for (const provider of user.oauthProviders) methods.push(provider.id);
  return methods;
}

function Avatar({ user }: { user: ServerUser }) {
  if (user.profileImageUrl) return <img className="user-avatar" src={user.profileImageUrl} alt="" />;
  const initial = (user.displayName ?? user.primaryEmail ?? "?").trim().charAt(0).toUpperCase() || "?";
  return (
    <span className="user-avatar" aria-hidden="true">
      {initial}
    </span>
  );
}

export function UsersTable({ projectId, users }: { projectId: string; users: ServerUser[] }) {
  return (
    <div className="users-table-scroll">
      <Table columns={["User", "Primary e-mail", "Signed up", "Last active", "Sign-in methods"]} className="users-table">
        {users.map((user) => (
          <tr key={user.id} data-user-id={user.id}>
            <td>
              <Link className="user-cell" to={`/projects/${projectId}/users/${user.id}`}>
                <Avatar user={user} />
                <span>
                  <span className="user-name">{user.displayName ?? (user.isAnonymous ? "Anonymous user" : "No name")}</span>
                  {user.isAnonymous ? <span className="badge">Anonymous</span> : null}
                  <span className="user-id mono">{user.id}</span>
                </span>
              </Link>
            </td>
            <td>
              {user.primaryEmail ? (
                <span className="user-email">
                  {user.primaryEmail}
                  {user.primaryEmailVerified ? (
                    <span className="verified" title="Verified">
                      ✓<span className="visually-hidden"> verified</span>
                    </span>
                  ) : (
                    <span className="muted"> (unverified)</span>
                  )}
                </span>
              ) : (
                <span className="muted">None</span>
              )}
            </td>
            <td className="nowrap">{dateTime.format(user.signedUpAt)}</td>
            <td className="nowrap">{dateTime.format(user.lastActiveAt)}</td>
            <td>{signInMethods(user).join(", ") || <span className="muted">None</span>}</td>
          </tr>
        ))}
      </Table>
    </div>
  );
}
