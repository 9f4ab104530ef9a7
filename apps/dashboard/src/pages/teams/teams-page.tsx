/** The project's teams: search by name or id (kept in the URL), create one, open one. */
import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { useAdminApp } from "../../lib/owned-projects.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { Empty, Loaded } from "../../ui/states.tsx";
import { NewTeamForm } from "./new-team-form.tsx";
import { TeamAvatar } from "./team-avatar.tsx";
import "./teams.css";

export default function TeamsPage() {
  const app = useAdminApp();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const query = params.get("q") ?? "";
  const teams = useLoad(() => app.listTeams(), [app]);
  const [creating, setCreating] = useState(false);
  const q = query.trim().toLowerCase();
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
      <label className="search">
        <span className="visually-hidden">Search teams</span>
        <input
          className="input"
          type="search"
          placeholder="Search by name or id"
          value={query}
          onChange={(e) => setParams(e.target.value ? { q: e.target.value } : {}, { replace: true })}
        />
      </label>
      <Card>
        <Loaded load={teams}>
          {(list) => {
            const shown = q ? list.filter((t) => t.displayName.toLowerCase().includes(q) || t.id.includes(q)) : list;
            if (list.length === 0)
              return (
                <Empty>
                  <p>This project has no teams yet.</p>
                </Empty>
              );
            if (shown.length === 0)
              return (
                <Empty>
                  <p>No team matches “{query}”.</p>
                </Empty>
              );
            return (
              <table className="table">
                <thead>
                  <tr>
                    <th scope="col">Team</th>
                    <th scope="col">Id</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
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
                </tbody>
              </table>
            );
          }}
        </Loaded>
      </Card>
    </Page>
  );
}
