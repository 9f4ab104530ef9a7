/** The owner's projects: search by name or id (kept in the URL), open one, or start a new one. */
import type { AdminOwnedProject } from "@latchkey/js";
import { Link } from "react-router";
import { useOwnedProjects } from "../../lib/owned-projects.tsx";
import { projectHome, projectPath } from "../project-pages.ts";
import { Page } from "../../ui/page.tsx";
import { Empty } from "../../ui/states.tsx";
import { SearchField, useUrlSearch } from "../../ui/url-search.tsx";
import "./projects.css";

const created = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" });

export default function ProjectsPage() {
  const { projects } = useOwnedProjects();
  const search = useUrlSearch();
  const shown = projects.filter((p) => search.matches(p.displayName, p.id));
  return (
    <Page
      title="Projects"
      description="Each project is one app: its users, sign-in methods, keys and settings."
      actions={
        <Link className="button" to="/new-project">
          New project
        </Link>
      }
    >
      {projects.length === 0 ? (
        <Empty>
          <p>You have no projects yet.</p>
          <Link to="/new-project">Create your first project</Link>
        </Empty>
      ) : (
        <>
          <SearchField label="Search projects" search={search} />
          {shown.length === 0 ? (
            <Empty>
              <p>No project matches “{search.query}”.</p>
            </Empty>
          ) : (
            <ul className="project-grid">
              {shown.map((p) => (
                <li key={p.id}>
                  <ProjectCard project={p} />
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </Page>
  );
}

function ProjectCard({ project: p }: { project: AdminOwnedProject }) {
  return (
    <Link className="project-card" to={projectPath(p.id, projectHome)}>
      <span className="project-card-title">
        {p.logoUrl ? (
          <img className="project-logo" src={p.logoUrl} alt="" />
        ) : (
          <span className="project-logo" aria-hidden="true">
            {p.displayName.slice(0, 1).toUpperCase()}
          </span>
        )}
        <strong>{p.displayName}</strong>
      </span>
      <span className="muted project-card-description">{p.description || "No description"}</span>
      <span className="project-card-meta muted small">
        {p.isProductionMode ? <span className="badge badge-production">Production</span> : <span className="badge">Development</span>}
        <span>Created {created.format(p.createdAt)}</span>
      </span>
      <span className="mono small muted project-card-id">{p.id}</span>
    </Link>
  );
}
