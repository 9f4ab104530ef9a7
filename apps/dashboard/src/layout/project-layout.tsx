/** A project's pages: the sidebar built from the page list, and the page of the URL (loaded on first visit). */
import { Suspense } from "react";
import { NavLink, Outlet, useParams } from "react-router";
import { useOwnedProjects } from "../lib/owned-projects.tsx";
import { projectPages, projectPath, type ProjectPage } from "../pages/project-pages.ts";
import { Empty, Loading } from "../ui/states.tsx";
import { TopBar } from "./top-bar.tsx";

const GROUPS: NonNullable<ProjectPage["nav"]>["group"][] = [
  "Project",
  "Users",
  "Authentication",
  "Emails",
  "Payments",
  "Automation",
  "Settings",
];

export function ProjectLayout() {
  const { projectId } = useParams();
  const project = useOwnedProjects().projects.find((p) => p.id === projectId);
  return (
    <div className="shell">
      <TopBar />
      {project ? (
        <div className="with-sidebar">
          <nav className="sidebar" aria-label="Project">
            <p className="sidebar-project" title={project.id}>
              {project.displayName}
            </p>
            {GROUPS.map((group) => {
              const pages = projectPages.filter((p) => p.nav?.group === group);
              if (pages.length === 0) return null;
              return (
                <div key={group} className="sidebar-group">
                  <p className="sidebar-group-title">{group}</p>
                  <ul>
                    {pages.map((p) => (
                      <li key={p.path}>
                        <NavLink to={projectPath(project.id, p.path)} end={p.path === ""}>
                          {p.nav!.label}
                        </NavLink>
                      </li>
                    ))}
                  </ul>
                </div>
              );
            })}
          </nav>
          <main className="content" id="main" tabIndex={-1}>
            <Suspense fallback={<Loading />}>
              {/* Keyed: a page never carries one project's state (loaded data, form fields) into another's. */}
              <Outlet key={project.id} />
            </Suspense>
          </main>
        </div>
      ) : (
        <main className="content" id="main" tabIndex={-1}>
          <Empty>
            <h1>Project not found</h1>
            <p>No project with this id belongs to your teams. It may have been deleted or moved to a team you are not in.</p>
            <NavLink to="/projects">See your projects</NavLink>
          </Empty>
        </main>
      )}
    </div>
  );
}

/** Pages outside a project (the list, the first run): the top bar and one column. */
export function PlainLayout() {
  return (
    <div className="shell">
      <TopBar />
      <main className="content content-narrow" id="main" tabIndex={-1}>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </main>
    </div>
  );
}
