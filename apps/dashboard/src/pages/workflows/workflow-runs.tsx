/** A workflow's recent runs, newest first: when, on which event, how it ended, and what it printed or threw. */
import type { StackAdminApp, WorkflowRun } from "@latchkey/js";
import { useLoad } from "../../lib/use-load.ts";
import { Card } from "../../ui/page.tsx";
import { Empty, Loaded, RefreshButton } from "../../ui/states.tsx";
import { Table } from "../../ui/table.tsx";
import { formatTime } from "../emails/emails-sent-page.tsx";

const STATUS_WORDS: Record<WorkflowRun["status"], string> = {
  pending: "Waiting",
  running: "Running",
  succeeded: "Succeeded",
  failed: "Failed",
  timed_out: "Timed out",
};

function duration(run: WorkflowRun): string {
  if (!run.startedAt || !run.finishedAt) return "—";
  return `${((run.finishedAt.getTime() - run.startedAt.getTime()) / 1000).toFixed(1)} s`;
}

export function WorkflowRuns({ app, workflowId }: { app: StackAdminApp; workflowId: string }) {
  const runs = useLoad(() => app.listWorkflowRuns(workflowId), [app, workflowId]);
  return (
    <Card title="Recent runs" description="The last 50, kept for 90 days." actions={<RefreshButton load={runs} small />}>
      <Loaded load={runs}>
        {(list) =>
          list.length === 0 ? (
            <Empty>
              <p>No runs yet. A run appears here when one of its events fires while the workflow is enabled.</p>
            </Empty>
          ) : (
            <Table label="Runs" columns={["When", "Event", "Status", "Took", "Output"]}>
              {list.map((run) => (
                <tr key={run.id}>
                  <td className="nowrap">{formatTime(run.createdAt)}</td>
                  <td>
                    <code>{run.eventType}</code>
                  </td>
                  <td className={`workflow-status workflow-status-${run.status}`}>{STATUS_WORDS[run.status]}</td>
                  <td className="nowrap">{duration(run)}</td>
                  <td>
                    {run.output || run.error ? (
                      <details>
                        <summary>{run.error ? run.error.split("\n")[0] : "Output"}</summary>
                        {run.output ? <pre className="workflow-output">{run.output}</pre> : null}
                        {run.error ? <pre className="workflow-output workflow-error">{run.error}</pre> : null}
                      </details>
                    ) : (
                      <span className="muted">None</span>
                    )}
                  </td>
                </tr>
              ))}
            </Table>
          )
        }
      </Loaded>
    </Card>
  );
}
