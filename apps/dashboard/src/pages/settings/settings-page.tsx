/** The project's own settings: its details and logos, moving it to another team, deleting it. */
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { Page } from "../../ui/page.tsx";
import { DeleteCard } from "./delete-card.tsx";
import { ProjectDetailsForm } from "./project-details-form.tsx";
import { TransferCard } from "./transfer-card.tsx";
import "./settings.css";

export default function SettingsPage() {
  const project = useCurrentProject();
  return (
    <Page title="Project settings" description={<span className="mono small">{project.id}</span>}>
      {/* Keyed by id: another project's settings start from that project's values. */}
      <ProjectDetailsForm key={project.id} project={project} />
      <TransferCard key={`transfer-${project.id}`} project={project} />
      <DeleteCard key={`delete-${project.id}`} project={project} />
    </Page>
  );
}
