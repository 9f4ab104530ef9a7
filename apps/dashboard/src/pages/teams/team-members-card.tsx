/** A team's members with their team permissions (granted and revoked here), adding an existing user, removing a member. */
import type { AdminPermissionDefinition, ServerTeam, ServerTeamUser, ServerUser, StackAdminApp } from "@latchkey/js";
import { useState } from "react";
import { useAction } from "../../lib/use-action.ts";
import { useLoad, type Load } from "../../lib/use-load.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { Card } from "../../ui/page.tsx";
import { ActionStatus, Empty, Loaded } from "../../ui/states.tsx";
import { MemberPermissions } from "./member-permissions.tsx";
import { UserPicker } from "./user-picker.tsx";

export function TeamMembersCard({ app, team }: { app: StackAdminApp; team: ServerTeam }) {
  const members = useLoad(() => team.listUsers(), [team]);
  const definitions = useLoad(() => app.listTeamPermissionDefinitions(), [app]);
  const [adding, setAdding] = useState(false);
  return (
    <Card
      title="Members"
      description="Everyone in the team, with the permissions they hold in it."
      actions={
        <button type="button" className="button button-secondary" onClick={() => setAdding(true)}>
          Add member
        </button>
      }
    >
      <Dialog open={adding} title="Add a member" onClose={() => setAdding(false)}>
        <AddMemberForm
          app={app}
          team={team}
          members={members.data?.map((m) => m.id) ?? []}
          onAdded={() => {
            setAdding(false);
            members.reload();
          }}
        />
      </Dialog>
      <Loaded load={members}>
        {(list) =>
          list.length === 0 ? (
            <Empty>
              <p>This team has no members yet. Add an existing user or invite someone by e-mail.</p>
            </Empty>
          ) : (
            <ul className="member-list">
              {list.map((member) => (
                <MemberRow key={member.id} team={team} member={member} definitions={definitions} onRemoved={members.reload} />
              ))}
            </ul>
          )
        }
      </Loaded>
    </Card>
  );
}

function MemberRow({
  team,
  member,
  definitions,
  onRemoved,
}: {
  team: ServerTeam;
  member: ServerTeamUser;
  definitions: Load<AdminPermissionDefinition[]>;
  onRemoved: () => void;
}) {
  const [open, setOpen] = useState(false);
  const held = useLoad(async () => (await member.listPermissions(team, { recursive: false })).map((p) => p.id), [member, team]);
  const name = member.teamProfile.displayName ?? member.displayName ?? member.primaryEmail ?? member.id;
  return (
    <li className="member" aria-label={name}>
      <div className="member-head">
        <div>
          <strong>{name}</strong>
          {member.primaryEmail && member.primaryEmail !== name ? <span className="muted"> · {member.primaryEmail}</span> : null}
          <div className="permission-chips" aria-label="Permissions">
            {held.data?.length ? (
              held.data.map((id) => (
                <span key={id} className="chip mono">
                  {id}
                </span>
              ))
            ) : held.data ? (
              <span className="muted small">No permissions</span>
            ) : null}
          </div>
        </div>
        <div className="row-actions">
          <button type="button" className="button button-secondary button-small" aria-expanded={open} onClick={() => setOpen(!open)}>
            {open ? "Done" : "Permissions"}
          </button>
          <ConfirmButton
            label="Remove"
            title="Remove this member?"
            confirmLabel="Remove member"
            pendingLabel="Removing…"
            action={async () => {
              await team.removeUser(member.id);
              onRemoved();
            }}
          >
            <p>
              {name} leaves “{team.displayName}” and loses every permission in it.
            </p>
          </ConfirmButton>
        </div>
      </div>
      {open ? <MemberPermissions team={team} member={member} definitions={definitions} held={held} /> : null}
    </li>
  );
}

function AddMemberForm({ app, team, members, onAdded }: { app: StackAdminApp; team: ServerTeam; members: string[]; onAdded: () => void }) {
  const [user, setUser] = useState<ServerUser | null>(null);
  const add = useAction(async () => {
    if (!user) return;
    await team.addUser(user.id);
    onAdded();
  });
  return (
    <div className="form">
      <UserPicker
        app={app}
        label="User"
        hint="They join with the team-member default permissions."
        picked={user}
        onPick={setUser}
        exclude={members}
      />
      <ActionStatus error={add.error} />
      <button type="button" className="button" disabled={!user || add.pending} onClick={() => void add.run()}>
        {add.pending ? "Adding…" : "Add to team"}
      </button>
    </div>
  );
}
