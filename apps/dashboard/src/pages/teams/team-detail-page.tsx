/** One team: its profile, metadata, members with their permissions, invitations, API keys, products and items, and deleting it. */
import type { ServerTeam } from "@latchkey/js";
import { Link, useNavigate, useParams } from "react-router";
import { useAdminApp, useCurrentProject } from "../../lib/owned-projects.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { ApiKeysCard } from "../../ui/api-keys-card.tsx";
import { CustomerPaymentsCards } from "../../ui/customer-payments-cards.tsx";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { MetadataCard } from "../../ui/metadata-card.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { Empty, Loaded } from "../../ui/states.tsx";
import { TeamInvitationsCard } from "./team-invitations-card.tsx";
import { TeamMembersCard } from "./team-members-card.tsx";
import { TeamProfileCard } from "./team-profile-card.tsx";
import "./teams.css";

const TEAM_METADATA_HINTS = {
  clientMetadata: "Members' apps may read and change it.",
  clientReadOnlyMetadata: "Members' apps may read it; only servers change it.",
  serverMetadata: "Only servers read and change it.",
};

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
  const project = useCurrentProject();
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
      <MetadataCard
        owner={team}
        description="JSON your apps keep with the team: any JSON value, null for none."
        hints={TEAM_METADATA_HINTS}
        save={async (field, value) => (await team.update({ [field]: value }), onChanged())}
      />
      <ApiKeysCard owner={team} whose="team" enabled={project.config.allowTeamApiKeys} />
      <CustomerPaymentsCards customer={{ type: "team", id: team.id }} />
      <DeleteTeamCard team={team} />
    </Page>
  );
}

function DeleteTeamCard({ team }: { team: ServerTeam }) {
  const navigate = useNavigate();
  return (
    <Card title="Delete team" description="Deletes the team with its memberships, permissions and invitations. This cannot be undone.">
      <div>
        <ConfirmButton
          label="Delete team"
          small={false}
          title="Delete this team?"
          confirmLabel="Delete team"
          pendingLabel="Deleting…"
          action={async () => {
            await team.delete();
            void navigate("../teams", { replace: true });
          }}
        >
          <p>“{team.displayName}” and everything in it is deleted for good. Its members stay users of the project.</p>
        </ConfirmButton>
      </div>
    </Card>
  );
}
