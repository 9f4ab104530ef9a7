/** One team: its profile, metadata, members with their permissions, invitations, and deleting it. */
import type { ServerTeam } from "@latchkey/js";
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useAdminApp } from "../../lib/owned-projects.tsx";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { ActionStatus, Empty, Loaded } from "../../ui/states.tsx";
import { TeamInvitationsCard } from "./team-invitations-card.tsx";
import { TeamMembersCard } from "./team-members-card.tsx";
import { TeamMetadataCard } from "./team-metadata-card.tsx";
import { TeamProfileCard } from "./team-profile-card.tsx";
import "./teams.css";

export default function TeamDetailPage() {
  const { teamId = "" } = useParams();
  // A fresh page per team: nothing of the previous team stays, or is acted on, while the next one loads.
  return <TeamDetail key={teamId} teamId={teamId} />;
}

function TeamDetail({ teamId }: { teamId: string }) {
  const app = useAdminApp();
  const team = useLoad(() => app.getTeam(teamId), [app, teamId]);
  return (
    <Loaded load={team}>
      {(found) =>
        found ? (
          <TeamView team={found} onChanged={team.reload} />
        ) : (
          <Page title="Team not found">
            <Empty>
              <p>This project has no team with the id {teamId}.</p>
              <Link to="../teams">Back to teams</Link>
            </Empty>
          </Page>
        )
      }
    </Loaded>
  );
}

function TeamView({ team, onChanged }: { team: ServerTeam; onChanged: () => void }) {
  const app = useAdminApp();
  return (
    <Page
      title={team.displayName}
      description={
        <>
          <Link to="../teams">Teams</Link> · <span className="mono small">{team.id}</span> · created {team.createdAt.toLocaleDateString()}
        </>
      }
    >
      <TeamProfileCard team={team} onSaved={onChanged} />
      <TeamMembersCard app={app} team={team} />
      <TeamInvitationsCard team={team} />
      <TeamMetadataCard team={team} onSaved={onChanged} />
      <DeleteTeamCard team={team} />
    </Page>
  );
}

function DeleteTeamCard({ team }: { team: ServerTeam }) {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const remove = useAction(async () => {
    await team.delete();
    void navigate("../teams", { replace: true });
  });
  return (
    <Card title="Delete team" description="Deletes the team with its memberships, permissions and invitations. This cannot be undone.">
      <div>
        <button type="button" className="button button-danger" onClick={() => setConfirming(true)}>
          Delete team
        </button>
      </div>
      <Dialog open={confirming} title="Delete this team?" onClose={() => setConfirming(false)}>
        <p>“{team.displayName}” and everything in it is deleted for good. Its members stay users of the project.</p>
        <ActionStatus error={remove.error} />
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
          <button type="button" className="button button-danger" disabled={remove.pending} onClick={() => void remove.run()}>
            {remove.pending ? "Deleting…" : "Delete team"}
          </button>
        </div>
      </Dialog>
    </Card>
  );
}
