/** The bar over every signed-in page: home, the project switcher, the theme and the owner's own menu. */
import { UserButton } from "@latchkey/react";
import { Link, useNavigate, useParams } from "react-router";
import { useOwnedProjects } from "../lib/owned-projects.tsx";
import { useTheme, type ThemeChoice } from "../lib/theme.ts";

export function TopBar() {
  const { projects } = useOwnedProjects();
  const { projectId } = useParams();
  const navigate = useNavigate();
  const [theme, setTheme] = useTheme();
  return (
    <header className="topbar">
      {/* The first stop of Tab: past the bar and the sidebar, straight to the page. */}
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Link className="brand" to="/projects">
        Latchkey
      </Link>
      {projects.length > 0 ? (
        <label className="project-switcher">
          <span className="visually-hidden">Project</span>
          <select
            className="input"
            value={projectId ?? ""}
            onChange={(e) => void navigate(e.target.value ? `/projects/${e.target.value}` : "/projects")}
          >
            {projectId ? null : <option value="">Choose a project…</option>}
            {projects.map((p) => (
              <option key={p.id} value={p.id}>
                {p.displayName}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      <span className="topbar-actions">
        <label>
          <span className="visually-hidden">Theme</span>
          <select className="input input-small" value={theme} onChange={(e) => setTheme(e.target.value as ThemeChoice)}>
            <option value="system">System theme</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
        <UserButton />
      </span>
    </header>
  );
}
