/** The project's workflows: pick one to edit its triggers and TypeScript and to read its recent runs; new and delete. */
import { useNavigate, useSearchParams } from "react-router";
import { useAction } from "../../lib/use-action.ts";
import { useAdminApp } from "../../lib/owned-projects.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { Card, Page } from "../../ui/page.tsx";
import { ActionStatus, Empty, Loaded } from "../../ui/states.tsx";
import { EmailList } from "../emails/email-list.tsx";
import "../emails/emails.css";
import { WorkflowEditor } from "./workflow-editor.tsx";

/** What a new workflow starts as: disabled, so it runs only once its owner has written it and turned it on. */
const STARTER_SOURCE = `// Runs for each event the workflow is triggered by. latchkey.api calls this project's API with server access.
export default async function (event: { type: string; data: { id: string } }) {
  console.log("got", event.type, event.data.id);
  // const answer = await latchkey.api("PATCH", \`/users/\${event.data.id}\`, { server_metadata: { seen: true } });
}
`;

export default function WorkflowsPage() {
  const app = useAdminApp();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const workflows = useLoad(() => app.listWorkflows(), [app]);
  const create = useAction(async () => {
    const created = await app.createWorkflow({
      displayName: "New workflow",
      triggerEventTypes: ["user.created"],
      source: STARTER_SOURCE,
      enabled: false,
    });
    workflows.reload();
    void navigate(`?id=${created.id}`);
  });
  return (
    <Page
      title="Workflows"
      description="TypeScript the server runs when your project's events fire, calling the API back with server access to this project. Each run has 3 s of CPU time, 64 MiB of memory and 30 s in all."
      actions={
        <button type="button" className="button" onClick={() => void create.run()} disabled={create.pending}>
          {create.pending ? "Creating…" : "New workflow"}
        </button>
      }
    >
      <ActionStatus error={create.error} />
      <Loaded load={workflows}>
        {(list) => {
          const current = list.find((w) => w.id === params.get("id")) ?? list[0];
          if (!current)
            return (
              <Card>
                <Empty>
                  <p>No workflows yet. Create one to act on your users’ and teams’ events.</p>
                </Empty>
              </Card>
            );
          return (
            <div className="email-split">
              <Card>
                <EmailList
                  label="Workflows"
                  items={list.map((w) => ({ id: w.id, name: w.displayName, note: w.enabled ? "On" : "Off" }))}
                  selected={current.id}
                />
              </Card>
              <WorkflowEditor
                key={current.id}
                app={app}
                workflow={current}
                onSaved={workflows.reload}
                onDeleted={() => {
                  workflows.reload();
                  void navigate("?");
                }}
              />
            </div>
          );
        }}
      </Loaded>
    </Page>
  );
}
