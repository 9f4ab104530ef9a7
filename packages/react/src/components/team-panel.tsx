/**
 * One team in account settings. The user's permissions in it decide what is
 * shown: members ($read_members; removing them: $remove_members), inviting
 * ($invite_members), pending invitations ($read_members and $invite_members;
 * revoking: $remove_members), the team's name ($update_team), deleting it
 * ($delete_team) and, when the project allows team keys, its API keys
 * ($manage_api_keys). Everyone sees their own profile in the team and may leave.
 */
import type { CurrentUser, Team } from "@latchkey/js";
import { useState } from "react";
import { useProject } from "../use-project.ts";
import { TeamApiKeys } from "./api-keys-section.tsx";
import { Alert, ConfirmedAction, Field, Subsection, submitTo, useAction, useLoaded } from "./parts.tsx";
import { TeamInvitations, TeamInviteForm, TeamMembers } from "./team-members.tsx";
import { TeamSettings } from "./team-settings.tsx";

export function TeamPanel({ user, team }: { user: CurrentUser; team: Team }) {
  const { config } = useProject();
  const permissions = useLoaded(user._permissionsEntry(team));
  const held = new Set((permissions.value ?? []).map((permission) => permission.id));
  const can = (id: string) => held.has(id);
  return (
    <div className="lk-team-panel" role="region" aria-label={`Team ${team.displayName}`}>
      <p className="lk-muted lk-panel-caption">
        Managing <strong>{team.displayName}</strong>
      </p>
      <Alert>{permissions.error}</Alert>
      {permissions.value === null ? (
        permissions.error ? null : (
          <p className="lk-muted">Loading…</p>
        )
      ) : (
        <>
          {can("$read_members") ? <TeamMembers user={user} team={team} canRemove={can("$remove_members")} /> : null}
          {can("$invite_members") ? <TeamInviteForm team={team} /> : null}
          {can("$read_members") && can("$invite_members") ? <TeamInvitations team={team} canRevoke={can("$remove_members")} /> : null}
          <TeamProfile user={user} team={team} />
          {can("$update_team") || can("$delete_team") ? (
            <TeamSettings team={team} canUpdate={can("$update_team")} canDelete={can("$delete_team")} />
          ) : null}
          {config.allowTeamApiKeys && can("$manage_api_keys") ? <TeamApiKeys team={team} /> : null}
          <LeaveTeam user={user} team={team} />
        </>
      )}
    </div>
  );
}

/** The user's own name in this team (it starts as their account's). */
function TeamProfile({ user, team }: { user: CurrentUser; team: Team }) {
  const profile = useLoaded(user._teamProfileEntry(team));
  // Kept here, not in the form: the form starts afresh (keyed by the name) when the saved name comes back.
  const [saved, setSaved] = useState(false);
  return (
    <Subsection title="Your profile in this team">
      <Alert>{profile.error}</Alert>
      {profile.value === null ? (
        profile.error ? null : (
          <p className="lk-muted">Loading…</p>
        )
      ) : (
        <ProfileForm key={profile.value.displayName ?? ""} profile={profile.value} saved={saved} onSaved={setSaved} />
      )}
    </Subsection>
  );
}

function ProfileForm({
  profile,
  saved,
  onSaved,
}: {
  profile: { displayName: string | null; update(options: { displayName?: string }): Promise<void> };
  saved: boolean;
  onSaved(saved: boolean): void;
}) {
  const [displayName, setDisplayName] = useState(profile.displayName ?? "");
  const save = useAction(async () => {
    onSaved(false);
    await profile.update({ displayName: displayName.trim() });
    onSaved(true);
  });
  return (
    <form className="lk-form" onSubmit={submitTo(save.run)}>
      <Field label="Display name in this team" maxLength={256} value={displayName} onChange={(e) => setDisplayName(e.target.value)} />
      <Alert>{save.error}</Alert>
      {saved && !save.error ? (
        <p className="lk-success" role="status">
          Saved.
        </p>
      ) : null}
      <span className="lk-row">
        <button className="lk-button" type="submit" disabled={save.busy || displayName.trim() === ""}>
          Save profile
        </button>
      </span>
    </form>
  );
}

function LeaveTeam({ user, team }: { user: CurrentUser; team: Team }) {
  const leave = useAction(async () => {
    await user.leaveTeam(team);
  });
  return (
    <Subsection title="Leave team">
      <p className="lk-muted">You will lose access to {team.displayName} until someone invites you again.</p>
      <Alert>{leave.error}</Alert>
      <ConfirmedAction
        label="Leave team…"
        confirmLabel={`Leave ${team.displayName}`}
        busy={leave.busy}
        onConfirm={() => void leave.run()}
      />
    </Subsection>
  );
}
