/** The owner's projects: search by name or id, open one. */
import { useState } from "react";
import { Link } from "react-router";
import { useOwnedProjects } from "../../lib/owned-projects.tsx";
import { projectHome } from "../project-pages.ts";
import { Page } from "../../ui/page.tsx";
import { Empty } from "../../ui/states.tsx";

export default function ProjectsPage() {
  const { projects } = useOwnedProjects();
  const [query, setQuery] = useState("");
  const q = query.trim().toLowerCase();
  const shown = q ? projects.filter((p) => p.displayName.toLowerCase().includes(q) || p.id.includes(q)) : projects;
  return (
    <Page
      title="Projects"
      actions={
        <Link className="button" to="/new-project">
          New project
        </Link>
      }
    >
      <label className="search">
        <span className="visually-hidden">Search projects</span>
        <input
          className="input"
          type="search"
          placeholder="Search by name or id"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
        />
      </label>
      {projects.length === 0 ? (
        <Empty>
          <p>You have no projects yet.</p>
          <Link to="/new-project">Create your first project</Link>
        </Empty>
      ) : shown.length === 0 ? (
        <Empty>
          <p>No project matches “{query}”.</p>
        </Empty>
      ) : (
        <ul className="project-grid">
          {shown.map((p) => (
            <li key={p.id}>
              <Link className="project-card" to={`/projects/${p.id}/${projectHome}`}>
                <strong>{p.displayName}</strong>
                <span className="muted">{p.description || "No description"}</span>
                <span className="muted mono small">{p.id}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Page>
  );
}
