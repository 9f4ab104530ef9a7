/** A team's people in account settings: its members, inviting someone by e-mail, and the invitations not yet accepted. */
import type { CurrentUser, Team } from "@latchkey/js";
import { useState } from "react";
import { Alert, Field, Subsection, submitTo, useAction, useLoaded } from "./parts.tsx";

export function TeamMembers({ user, team, canRemove }: { user: CurrentUser; team: Team; canRemove: boolean }) {
  const members = useLoaded(team._usersEntry());
  const remove = useAction(async (userId: string) => {
    await team.removeUser(userId);
  });
  return (
    <Subsection title="Members">
      <Alert>{members.error ?? remove.error}</Alert>
      {members.value === null ? (
        members.error ? null : (
          <p className="lk-muted">Loading…</p>
        )
      ) : (
        <ul className="lk-list">
          {members.value.map((member) => {
            const you = member.id === user.id;
            const name = member.teamProfile.displayName ?? (you ? user.primaryEmail : null) ?? "A member without a name";
            return (
              <li key={member.id} className="lk-list-item">
                <span>
                  {name}
                  {you ? <span className="lk-badge">You</span> : null}
                </span>
                {canRemove && !you ? (
                  <button
                    className="lk-button lk-button-secondary"
                    type="button"
                    aria-label={`Remove ${name} from the team`}
                    disabled={remove.busy}
                    onClick={() => void remove.run(member.id)}
                  >
                    Remove
                  </button>
                ) : null}
              </li>
            );
          })}
        </ul>
      )}
    </Subsection>
  );
}

export function TeamInviteForm({ team }: { team: Team }) {
  const [email, setEmail] = useState("");
  const [sent, setSent] = useState<string | null>(null);
  const invite = useAction(async () => {
    setSent(null);
    const address = email.trim();
    await team.inviteUser({ email: address });
    setEmail("");
    setSent(address);
  });
  return (
    <Subsection title="Invite a member">
      <form className="lk-form" onSubmit={submitTo(invite.run)}>
        <Field
          label="E-mail address to invite"
          type="email"
          autoComplete="off"
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
        />
        <Alert>{invite.error}</Alert>
        {sent && !invite.error ? (
          <p className="lk-success" role="status">
            We sent an invitation to {sent}.
          </p>
        ) : null}
        <span className="lk-row">
          <button className="lk-button" type="submit" disabled={invite.busy}>
            Send invitation
          </button>
        </span>
      </form>
    </Subsection>
  );
}

export function TeamInvitations({ team, canRevoke }: { team: Team; canRevoke: boolean }) {
  const invitations = useLoaded(team._invitationsEntry());
  const revoke = useAction(async (revokeOne: () => Promise<void>) => {
    await revokeOne();
  });
  return (
    <Subsection title="Pending invitations">
      <Alert>{invitations.error ?? revoke.error}</Alert>
      {invitations.value === null ? (
        invitations.error ? null : (
          <p className="lk-muted">Loading…</p>
        )
      ) : invitations.value.length === 0 ? (
        <p className="lk-muted">No invitation is waiting for an answer.</p>
      ) : (
        <ul className="lk-list">
          {invitations.value.map((invitation) => (
            <li key={invitation.id} className="lk-list-item">
              <span>
                {invitation.recipientEmail}
                <span className="lk-badge">Expires {invitation.expiresAt.toLocaleDateString()}</span>
              </span>
              {canRevoke ? (
                <button
                  className="lk-button lk-button-secondary"
                  type="button"
                  aria-label={`Revoke the invitation to ${invitation.recipientEmail}`}
                  disabled={revoke.busy}
                  onClick={() => void revoke.run(() => invitation.revoke())}
                >
                  Revoke
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </Subsection>
  );
}
