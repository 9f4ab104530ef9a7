/** Invites someone to a team by e-mail, and lists the invitations not yet accepted (each can be revoked). */
import type { ServerTeam, TeamInvitation } from "@latchkey/js";
import { useState, type FormEvent } from "react";
import { knownHandlerUrl, useHostApp } from "../../lib/host-app.tsx";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";
import { Field } from "../../ui/field.tsx";
import { Card } from "../../ui/page.tsx";
import { ActionStatus, Empty, Loaded } from "../../ui/states.tsx";
import { Table } from "../../ui/table.tsx";

/** The invitation page among the app's handler pages. */
const invitationPage = (handlerUrl: string) => `${handlerUrl}/team-invitation`;

export function TeamInvitationsCard({ team }: { team: ServerTeam }) {
  const project = useCurrentProject();
  const invitations = useLoad(() => team.listInvitations(), [team]);
  const [email, setEmail] = useState("");
  const host = useHostApp(project);
  const [link, setLink] = useState(() => {
    const known = knownHandlerUrl(project);
    return known ? invitationPage(known) : "";
  });
  // Always with the app's page: without one, the invitation would lead to the dashboard's own page, which belongs to another project.
  const invite = useAction(async (callbackUrl: string) => {
    const to = email.trim();
    await team.inviteUser({ email: to, callbackUrl });
    setEmail("");
    invitations.reload();
    return `Invitation sent to ${to}.`;
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (link.trim()) void invite.run(link.trim());
    else
      host.withHandlerUrl((handlerUrl) => {
        setLink(invitationPage(handlerUrl));
        void invite.run(invitationPage(handlerUrl));
      });
  };
  return (
    <Card title="Invitations" description="An invitation mails a link; whoever opens it signed in with that address joins the team.">
      <form className="form invite-form" onSubmit={submit}>
        <Field label="E-mail address">
          {(props) => <input {...props} className="input" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}
        </Field>
        <Field
          label="Invitation page"
          hint="Your app's page that accepts invitations; it must be on one of the project's trusted domains. Left empty, you are asked where your app runs."
        >
          {(props) => <input {...props} className="input" type="url" value={link} onChange={(e) => setLink(e.target.value)} />}
        </Field>
        <ActionStatus error={invite.error} done={invite.done} />
        <div>
          <button type="submit" className="button" disabled={invite.pending}>
            {invite.pending ? "Sending…" : "Send invitation"}
          </button>
        </div>
      </form>
      {host.dialog}
      <h3 className="subheading">Pending</h3>
      <Loaded load={invitations}>
        {(list) =>
          list.length === 0 ? (
            <Empty>
              <p>No pending invitations.</p>
            </Empty>
          ) : (
            <Table columns={["E-mail", "Expires"]} actions label="Pending invitations">
              {list.map((invitation) => (
                <InvitationRow key={invitation.id} invitation={invitation} onRevoked={invitations.reload} />
              ))}
            </Table>
          )
        }
      </Loaded>
    </Card>
  );
}

function InvitationRow({ invitation, onRevoked }: { invitation: TeamInvitation; onRevoked: () => void }) {
  const revoke = useAction(async () => {
    await invitation.revoke();
    onRevoked();
  });
  return (
    <tr>
      <td>{invitation.recipientEmail}</td>
      <td>{invitation.expiresAt.toLocaleString()}</td>
      <td className="row-actions">
        <ActionStatus error={revoke.error} />
        <button
          type="button"
          className="button button-danger button-small"
          disabled={revoke.pending}
          aria-label={`Revoke the invitation to ${invitation.recipientEmail}`}
          onClick={() => void revoke.run()}
        >
          {revoke.pending ? "Revoking…" : "Revoke"}
        </button>
      </td>
    </tr>
  );
}
