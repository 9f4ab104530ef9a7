/**
 * A new project in two steps: its name (and team, when the owner is in
 * several), then its first key set, shown once. The new owner lands here
 * from "/", so the page greets them; from the projects list it is plainly
 * "New project". It ends on the project's setup page, the publishable key
 * handed over in navigation state.
 */
import type { AdminOwnedProject, InternalApiKeyFirstView } from "@latchkey/js";
import { useEffect, useState } from "react";
import { Link, useBlocker, useNavigate } from "react-router";
import { useOwnedProjects } from "../../lib/owned-projects.tsx";
import { useAction } from "../../lib/use-action.ts";
import { Dialog } from "../../ui/dialog.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { ActionStatus } from "../../ui/states.tsx";
import { KeysShownOnce } from "../keys/keys-shown-once.tsx";
import type { NewKeyState } from "../setup/setup-page.tsx";
import { NewProjectForm } from "./new-project-form.tsx";
import "./first-run.css";

/** Long enough to outlive any deployment: the owner revokes these keys when they are done with them. */
const FIRST_KEYS_LIFETIME = 100 * 365 * 24 * 60 * 60 * 1000;

export default function FirstRunPage() {
  const { projects, refresh } = useOwnedProjects();
  const navigate = useNavigate();
  // Decided once: creating the project must not turn the greeting into "New project" mid-way.
  const [welcome] = useState(() => projects.length === 0);
  const [project, setProject] = useState<AdminOwnedProject | null>(null);
  const [keys, setKeys] = useState<InternalApiKeyFirstView | null>(null);
  const [copied, setCopied] = useState(false);
  // The keys are shown only here: leaving (the top bar, back, a reload) before they are copied loses them.
  const keysAtRisk = keys !== null && !copied;
  const leaving = useBlocker(keysAtRisk);
  useEffect(() => {
    if (!keysAtRisk) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener("beforeunload", warn);
    return () => window.removeEventListener("beforeunload", warn);
  }, [keysAtRisk]);

  const createKeys = useAction(async (made: AdminOwnedProject) => {
    setKeys(
      await made.app.createInternalApiKey({
        description: "First keys",
        expiresAt: new Date(Date.now() + FIRST_KEYS_LIFETIME),
        hasPublishableClientKey: true,
        hasSecretServerKey: true,
        hasSuperSecretAdminKey: false,
      }),
    );
  });

  const created = async (made: AdminOwnedProject) => {
    setProject(made);
    await Promise.all([createKeys.run(made), refresh()]);
  };

  const finish = () => {
    if (!project || !keys?.publishableClientKey) return;
    const state: NewKeyState = { projectId: project.id, publishableClientKey: keys.publishableClientKey };
    void navigate(`/projects/${project.id}/setup`, { state });
  };

  const step = keys ? 3 : project ? 2 : 1;
  return (
    <Page
      title={welcome ? "Welcome to Latchkey" : "New project"}
      description={
        welcome
          ? "Let's create your first project: it holds your app's users, sign-in methods and settings."
          : "A project holds one app's users, sign-in methods and settings."
      }
      actions={
        !welcome && !project ? (
          <Link className="button button-secondary" to="/projects">
            Cancel
          </Link>
        ) : null
      }
    >
      <Dialog open={leaving.state === "blocked"} title="Leave without your keys?" onClose={() => leaving.reset?.()}>
        <p>These keys are shown only on this page. If you leave now, you will need to create new keys on the project's Keys page.</p>
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={() => leaving.proceed?.()}>
            Leave without them
          </button>
          <button type="button" className="button" autoFocus onClick={() => leaving.reset?.()}>
            Stay and copy them
          </button>
        </div>
      </Dialog>
      <ol className="steps" aria-label="Steps">
        <li aria-current={step === 1 ? "step" : undefined} className={step > 1 ? "step-done" : undefined}>
          Name your project
        </li>
        <li aria-current={step === 2 || step === 3 ? "step" : undefined}>Copy your keys</li>
        <li>Connect your app</li>
      </ol>
      {!project ? (
        <Card>
          <NewProjectForm onCreated={created} />
        </Card>
      ) : keys ? (
        <Card title="Your project's keys" description={`${project.displayName} is ready. Your app needs these keys to talk to it.`}>
          <KeysShownOnce projectId={project.id} keys={keys} onDone={finish} doneLabel="Continue to setup" onCopiedChange={setCopied} />
        </Card>
      ) : (
        <Card title="Creating your keys…">
          <ActionStatus error={createKeys.error} />
          {createKeys.error ? (
            <button type="button" className="button" disabled={createKeys.pending} onClick={() => void createKeys.run(project)}>
              Try again
            </button>
          ) : (
            <p className="muted" role="status">
              {project.displayName} is created; its keys come next.
            </p>
          )}
        </Card>
      )}
    </Page>
  );
}
