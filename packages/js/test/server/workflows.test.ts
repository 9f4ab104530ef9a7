/**
 * Workflows through the admin app (Latchkey's own): created, listed, updated and deleted; run on the event they
 * name with their change visible through the SDK; their runs listed; an unknown one a WorkflowNotFound.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { KnownErrors } from "../../src/index.ts";
import { type SdkProject, startServerWithProject } from "./fixtures.ts";
import { uniqueEmail, type TestServer } from "./support.ts";

let server: TestServer;
let project: SdkProject;

beforeAll(async () => {
  ({ server, project } = await startServerWithProject());
});
afterAll(() => server?.close());

const SOURCE = `export default async (event: { data: { id: string } }) => {
  await latchkey.api("PATCH", "/users/" + event.data.id, { server_metadata: { synced: true } });
  console.log("synced");
};`;

it("manages a workflow whose runs show in its log", async () => {
  const admin = project.project.app;
  const created = await admin.createWorkflow({ displayName: "Sync", triggerEventTypes: ["user.created"], source: SOURCE });
  expect(created).toMatchObject({ displayName: "Sync", triggerEventTypes: ["user.created"], enabled: true, source: SOURCE });
  expect(created.createdAt).toBeInstanceOf(Date);
  expect((await admin.listWorkflows()).map((w) => w.id)).toEqual([created.id]);

  const user = await admin.createUser({ primaryEmail: uniqueEmail() });
  await server.instance.services.jobs.flush();
  expect((await admin.getUser(user.id))?.serverMetadata).toEqual({ synced: true });
  const [run, ...more] = await admin.listWorkflowRuns(created.id);
  expect(more).toEqual([]);
  expect(run).toMatchObject({ workflowId: created.id, eventType: "user.created", status: "succeeded", output: "synced\n", error: null });
  expect(run!.finishedAt).toBeInstanceOf(Date);

  const updated = await admin.updateWorkflow(created.id, { enabled: false, displayName: "Sync (off)" });
  expect(updated).toMatchObject({ enabled: false, displayName: "Sync (off)", source: SOURCE });
  await admin.deleteWorkflow(created.id);
  expect(await admin.listWorkflows()).toEqual([]);
  await expect(admin.deleteWorkflow(created.id)).rejects.toBeInstanceOf(KnownErrors.WorkflowNotFound);
});
