/** Who the user is: their profile at a glance, editing name and picture, and restricting them. */
import type { ServerUser } from "@latchkey/js";
import { useState } from "react";
import { useAction } from "../../../lib/use-action.ts";
import { Field } from "../../../ui/field.tsx";
import { Card } from "../../../ui/page.tsx";
import { ActionStatus } from "../../../ui/states.tsx";
import { formatDate } from "./format.ts";

export function ProfileCard({ user, onChanged }: { user: ServerUser; onChanged: () => void }) {
  const [displayName, setDisplayName] = useState(user.displayName ?? "");
  const [imageUrl, setImageUrl] = useState(user.profileImageUrl ?? "");
  const save = useAction(async () => {
    await user.update({ displayName: displayName.trim() || null, profileImageUrl: imageUrl.trim() || null });
    onChanged();
    return "Profile saved.";
  });
  return (
    <Card title="Profile">
      <div className="profile">
        {user.profileImageUrl ? (
          <img className="profile-image" src={user.profileImageUrl} alt="" />
        ) : (
          <span className="profile-image profile-initial" aria-hidden="true">
            {(user.displayName ?? user.primaryEmail ?? "?").slice(0, 1).toUpperCase()}
          </span>
        )}
        <dl className="facts">
          <dt>Display name</dt>
          <dd>{user.displayName ?? <span className="muted">None</span>}</dd>
          <dt>Primary e-mail</dt>
          <dd>
            {user.primaryEmail ? <span>{user.primaryEmail}</span> : <span className="muted">None</span>}
            {user.primaryEmail ? (
              <span className={`badge ${user.primaryEmailVerified ? "badge-success" : ""}`}>
                {user.primaryEmailVerified ? "Verified" : "Not verified"}
              </span>
            ) : null}
          </dd>
          <dt>User ID</dt>
          <dd className="mono">{user.id}</dd>
          <dt>Signed up</dt>
          <dd>{formatDate(user.signedUpAt)}</dd>
          <dt>Last active</dt>
          <dd>{formatDate(user.lastActiveAt)}</dd>
          <dt>Country</dt>
          <dd>{user.countryCode ?? <span className="muted">Unknown</span>}</dd>
          <dt>Status</dt>
          <dd>
            {user.isRestricted ? (
              <span className="badge badge-warning">
                Restricted{user.restrictedByAdmin ? " by an admin" : user.restrictedReason ? ` (${user.restrictedReason.type})` : ""}
              </span>
            ) : (
              <span className="badge badge-success">Active</span>
            )}
            {user.restrictedByAdminReason ? <span className="muted"> {user.restrictedByAdminReason}</span> : null}
          </dd>
        </dl>
      </div>
      <form
        className="form profile-form"
        onSubmit={(event) => {
          event.preventDefault();
          void save.run();
        }}
      >
        <Field label="Display name">
          {(props) => <input {...props} className="input" value={displayName} onChange={(e) => setDisplayName(e.target.value)} />}
        </Field>
        <Field label="Profile image URL">
          {(props) => <input {...props} className="input" type="url" value={imageUrl} onChange={(e) => setImageUrl(e.target.value)} />}
        </Field>
        <div className="row-actions">
          <button type="submit" className="button" disabled={save.pending}>
            {save.pending ? "Saving…" : "Save profile"}
          </button>
        </div>
        <ActionStatus error={save.error} done={save.done} />
      </form>
      <Restriction user={user} onChanged={onChanged} />
    </Card>
  );
}

function Restriction({ user, onChanged }: { user: ServerUser; onChanged: () => void }) {
  const [reason, setReason] = useState(user.restrictedByAdminReason ?? "");
  const toggle = useAction(async () => {
    const restrict = !user.restrictedByAdmin;
    await user.update({ restrictedByAdmin: restrict, restrictedByAdminReason: restrict ? reason.trim() || null : null });
    onChanged();
    return restrict ? "User restricted." : "Restriction lifted.";
  });
  return (
    <div className="restriction">
      <h3>Restriction</h3>
      <p className="muted">Restricted users are marked as such when they sign in; your app decides what they may do.</p>
      {user.restrictedByAdmin ? null : (
        <Field label="Reason shown to the user (optional)">
          {(props) => <input {...props} className="input" value={reason} onChange={(e) => setReason(e.target.value)} />}
        </Field>
      )}
      <div className="row-actions">
        <button
          type="button"
          className={`button ${user.restrictedByAdmin ? "button-secondary" : "button-danger"}`}
          disabled={toggle.pending}
          onClick={() => void toggle.run()}
        >
          {user.restrictedByAdmin ? "Lift restriction" : "Restrict user"}
        </button>
      </div>
      <ActionStatus error={toggle.error} done={toggle.done} />
    </div>
  );
}
