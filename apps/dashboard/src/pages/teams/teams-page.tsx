/** The project's teams: search by name or id (kept in the URL), create one, open one. */
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { useAdminApp } from "../../lib/owned-projects.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { Empty, Loaded } from "../../ui/states.tsx";
import { SearchField, useUrlSearch } from "../../ui/url-search.tsx";
import { Table } from "../../ui/table.tsx";
import { NewTeamForm } from "./new-team-form.tsx";
import { TeamAvatar } from "./team-avatar.tsx";
import "./teams.css";

export default function TeamsPage() {
  const app = useAdminApp();
  const navigate = useNavigate();
  const search = useUrlSearch();
  const teams = useLoad(() => app.listTeams(), [app]);
  const [creating, setCreating] = useState(false);
  return (
    <Page
      title="Teams"
      description="Groups of users with their own members, permissions and invitations."
      actions={
        <button type="button" className="button" onClick={() => setCreating(true)}>
          New team
        </button>
      }
    >
      <Dialog open={creating} title="New team" onClose={() => setCreating(false)}>
        <NewTeamForm app={app} onCreated={(team) => void navigate(team.id)} />
      </Dialog>
      <SearchField label="Search teams" search={search} />
      <Card>
        <Loaded load={teams}>
          {(list) => {
            const shown = list.filter((t) => search.matches(t.displayName, t.id));
            if (list.length === 0)
              return (
                <Empty>
                  <p>This project has no teams yet.</p>
                </Empty>
              );
            if (shown.length === 0)
              return (
                <Empty>
                  <p>No team matches “{search.query}”.</p>
                </Empty>
              );
            return (
              <Table columns={["Team", "Id", "Created"]}>
                {shown.map((team) => (
                  <tr key={team.id}>
                    <td>
                      <Link className="team-link" to={team.id}>
                        <TeamAvatar name={team.displayName} imageUrl={team.profileImageUrl} />
                        <span>{team.displayName}</span>
                      </Link>
                    </td>
                    <td className="mono small muted">{team.id}</td>
                    <td>{team.createdAt.toLocaleDateString()}</td>
                  </tr>
                ))}
              </Table>
            );
          }}
        </Loaded>
      </Card>
    </Page>
  );
}
