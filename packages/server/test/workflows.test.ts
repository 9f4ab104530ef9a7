/**
 * Workflows (capabilities/workflows): TypeScript run in the QuickJS sandbox when an event it names fires, calling
 * the API back with a workflow token that grants server access to its project for its run only; the admin
 * endpoints that manage them and their run log; scripts that throw, loop or misbehave are logged, and the server
 * keeps serving.
 */
import { randomUUID } from "node:crypto";
import { WORKFLOW_TOKEN_LIFETIME_MILLIS } from "@latchkey/shared";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteOldWorkflowRuns, WORKFLOW_RUNS_KEPT_MILLIS } from "../src/capabilities/workflows/domain/retention.ts";
import { deleteExpiredWorkflowTokens, mintWorkflowToken, revokeWorkflowToken } from "../src/capabilities/workflows/domain/tokens.ts";
import { workflowRuns, workflows } from "../src/capabilities/workflows/schema.ts";
import { createProject, serverWithProject, signUpUser, UNKNOWN_UUID, type Project } from "./fixtures.ts";
import { expectKnownError, type Auth, type TestResponse, type TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;
let other: Project;

beforeAll(async () => {
  ({ server, project } = await serverWithProject());
  other = await createProject(server);
});
afterAll(() => server?.close());

const services = () => server.instance.services;

/** A SCHEMA_ERROR naming the field at `path`. */
function expectSchemaErrorAt(res: TestResponse, path: string) {
  expectKnownError(res, "SCHEMA_ERROR", 400);
  expect(res.body.error).toMatch(new RegExp(`\\n  - ${path.replace(/\./g, "\\.")}[ .[]`));
}

/** Every due job run to its end, the workflow runs among them (the job runner, awaited: no sleeping). */
const runJobs = () => services().jobs.flush();

const SET_METADATA = `
export default async function (event: { type: string; data: { id: string } }) {
  console.log("welcoming", event.data.id, undefined);
  const answer = await latchkey.api("PATCH", "/users/" + event.data.id, { server_metadata: { welcomed: true } });
  console.log("answered", answer.status);
  if (!answer.ok) throw new Error("the update failed: " + JSON.stringify(answer.body));
}
`;

async function createWorkflow(fields: Record<string, unknown> = {}, on: Project = project) {
  const res = await server.request("/internal/workflows", {
    method: "POST",
    as: on.admin,
    body: { display_name: "Welcome", trigger_event_types: ["user.created"], source: SET_METADATA, ...fields },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; enabled: boolean };
}

async function deleteWorkflow(id: string, on: Project = project) {
  const res = await server.request(`/internal/workflows/${id}`, { method: "DELETE", as: on.admin });
  expect(res.status, res.text).toBe(200);
}

async function runsOf(id: string, on: Project = project) {
  const res = await server.request(`/internal/workflows/${id}/runs`, { as: on.admin });
  expect(res.status, res.text).toBe(200);
  return res.body.items as {
    status: string;
    output: string;
    error: string | null;
    event_type: string;
    finished_at_millis: number | null;
  }[];
}

/** A workflow with `source` on user.created, run once by a sign-up; answers its one run. */
async function runOnce(source: string) {
  const workflow = await createWorkflow({ source });
  try {
    await signUpUser(server, project);
    await runJobs();
    const runs = await runsOf(workflow.id);
    expect(runs).toHaveLength(1);
    return runs[0]!;
  } finally {
    await deleteWorkflow(workflow.id);
  }
}

describe("a workflow on user.created", () => {
  it("runs after sign-up and calls the API back: its change is visible, its output logged", async () => {
    const workflow = await createWorkflow();
    try {
      const user = await signUpUser(server, project);
      await runJobs();
      const read = await server.request(`/users/${user.userId}`, { as: project.server });
      expect(read.body.server_metadata).toEqual({ welcomed: true });
      const [run, ...more] = await runsOf(workflow.id);
      expect(more).toEqual([]);
      expect(run).toMatchObject({ status: "succeeded", event_type: "user.created", error: null });
      expect(run!.output).toBe(`welcoming ${user.userId} undefined\nanswered 200\n`);
      expect(run!.finished_at_millis).not.toBeNull();
    } finally {
      await deleteWorkflow(workflow.id);
    }
  });

  it("does not run while disabled, nor for events it does not name, nor for other projects' events", async () => {
    const disabled = await createWorkflow({ enabled: false });
    const onTeams = await createWorkflow({ trigger_event_types: ["team.created"] });
    const elsewhere = await createWorkflow({}, other);
    try {
      const user = await signUpUser(server, project);
      await runJobs();
      expect(await runsOf(disabled.id)).toEqual([]);
      expect(await runsOf(onTeams.id)).toEqual([]);
      expect(await runsOf(elsewhere.id, other)).toEqual([]);
      const read = await server.request(`/users/${user.userId}`, { as: project.server });
      expect(read.body.server_metadata).toBeNull();
    } finally {
      await Promise.all([deleteWorkflow(disabled.id), deleteWorkflow(onTeams.id), deleteWorkflow(elsewhere.id, other)]);
    }
  });
});

describe("a workflow's own changes", () => {
  it("trigger no workflow: one on user.updated that updates the user runs once per update made outside it", async () => {
    const user = await signUpUser(server, project);
    await runJobs();
    const workflow = await createWorkflow({
      trigger_event_types: ["user.updated"],
      source: `
export default async function (event: { data: { id: string; server_metadata: { count?: number } | null } }) {
  const count = (event.data.server_metadata?.count ?? 0) + 1;
  const answer = await latchkey.api("PATCH", "/users/" + event.data.id, { server_metadata: { count } });
  if (!answer.ok) throw new Error(JSON.stringify(answer.body));
}
`,
    });
    try {
      const update = await server.request(`/users/${user.userId}`, { method: "PATCH", as: project.server, body: { display_name: "Ada" } });
      expect(update.status, update.text).toBe(200);
      await runJobs();
      await runJobs();
      const runs = await runsOf(workflow.id);
      expect(runs.map((run) => run.status)).toEqual(["succeeded"]);
      const read = await server.request(`/users/${user.userId}`, { as: project.server });
      expect(read.body.server_metadata).toEqual({ count: 1 });
    } finally {
      await deleteWorkflow(workflow.id);
    }
  });
});

describe("a run that goes wrong is logged, and the server keeps serving", () => {
  it("a script that throws fails with its error and the output it made", async () => {
    const run = await runOnce(`export default async () => { console.warn("about to fail"); throw new Error("no luck"); };`);
    expect(run.status).toBe("failed");
    expect(run.output).toBe("[warn] about to fail\n");
    expect(run.error).toMatch(/^Error: no luck/);
  });

  it("a script that loops forever is stopped at the templates' CPU limit", async () => {
    const run = await runOnce(`export default function () { for (;;) {} }`);
    expect(run).toMatchObject({ status: "timed_out", error: "It used more than 3 s of CPU time." });
    const res = await server.request("/users", { as: project.server });
    expect(res.status).toBe(200);
  });

  it("a script that exports no function fails with why; one stored before it stopped compiling too", async () => {
    expect((await runOnce(`export const x = 1;`)).error).toMatch(/must export a default function/);
    // Saved sources compile (see the admin endpoints); one that no longer does still fails its run, with why.
    const workflow = await createWorkflow();
    try {
      await services().db.update(workflows).set({ source: "export default function ( {" }).where(eq(workflows.id, workflow.id));
      await signUpUser(server, project);
      await runJobs();
      const [run] = await runsOf(workflow.id);
      expect(run).toMatchObject({ status: "failed" });
      expect(run!.error).toMatch(/^The workflow does not compile: /);
    } finally {
      await deleteWorkflow(workflow.id);
    }
  });

  it("a script that waits for nothing, or grows past the memory limit, fails", async () => {
    expect((await runOnce(`export default () => new Promise(() => {});`)).error).toMatch(/waits for something that never comes/);
    const big = await runOnce(`export default () => { const a: string[] = []; for (;;) a.push("x".repeat(1 << 20) + a.length); };`);
    expect(big.status).toBe("failed");
  });

  it("the API outside /api/v1 is out of reach, and so are methods the API does not have", async () => {
    const run = await runOnce(`
      export default async () => {
        for (const path of ["/../../health/live", "/%2e%2e/%2e%2e/health/live", "/../../svix/api/v1/app"]) {
          const answer = await latchkey.api("GET", path);
          console.log(answer.status, answer.body);
        }
        console.log((await latchkey.api("TRACE", "/users")).status);
      };`);
    expect(run.status).toBe("succeeded");
    const refused = "400 The path must be one of the API's, such as /users/{user_id}.";
    expect(run.output).toBe(`${refused}\n${refused}\n${refused}\n400\n`);
  });
});

describe("the workflow token", () => {
  let runId: string;
  const as = (token: string, on: Project = project, type: "server" | "client" = "server") =>
    ({ type, projectId: on.id, headers: { "x-stack-workflow-token": token } }) as const;
  /** A server-only read (the list of users), or as client access a client one (the project). */
  const get = (token: string, on: Project = project, type: "server" | "client" = "server") => {
    const { headers, ...auth } = as(token, on, type);
    return server.request(type === "server" ? "/users" : "/projects/current", { as: auth as Auth, headers });
  };

  beforeAll(async () => {
    // A run for the tokens to belong to: the tokens are minted here, as a run's are.
    const workflow = await createWorkflow({ source: "export default () => {};" });
    await signUpUser(server, project);
    await runJobs();
    const [row] = await services().db.select().from(workflowRuns).where(eq(workflowRuns.workflowId, workflow.id));
    runId = row!.id;
    await server.request(`/internal/workflows/${workflow.id}`, { method: "PATCH", as: project.admin, body: { enabled: false } });
  });

  it("grants server access to its project in place of the secret server key", async () => {
    const token = await mintWorkflowToken(services(), project.id, runId);
    expect((await get(token)).status).toBe(200);
    // Client access takes it in place of the publishable key, as client access.
    expect((await get(token, project, "client")).status).toBe(200);
    const { headers, ...client } = as(token, project, "client");
    expectKnownError(await server.request("/users", { as: client as Auth, headers }), "INSUFFICIENT_ACCESS_TYPE", 401);
  });

  it("is refused on another project as if it did not exist", async () => {
    const token = await mintWorkflowToken(services(), project.id, runId);
    expectKnownError(await get(token, other), "WORKFLOW_TOKEN_DOES_NOT_EXIST", 400);
  });

  it("answers WORKFLOW_TOKEN_DOES_NOT_EXIST when unknown or its run ended", async () => {
    expectKnownError(await get("not-a-token"), "WORKFLOW_TOKEN_DOES_NOT_EXIST", 400);
    const token = await mintWorkflowToken(services(), project.id, runId);
    await revokeWorkflowToken(services(), token);
    expectKnownError(await get(token), "WORKFLOW_TOKEN_DOES_NOT_EXIST", 400);
  });

  it("answers WORKFLOW_TOKEN_EXPIRED once its 35 s are over", async () => {
    const token = await mintWorkflowToken(services(), project.id, runId);
    await server.clock.ahead(WORKFLOW_TOKEN_LIFETIME_MILLIS - 1000, async () => expect((await get(token)).status).toBe(200));
    await server.clock.ahead(WORKFLOW_TOKEN_LIFETIME_MILLIS, async () => {
      expectKnownError(await get(token), "WORKFLOW_TOKEN_EXPIRED", 400);
    });
  });

  it("takes its place among the checks: after the project's, and in place of the keys (a wrong key is ignored)", async () => {
    const token = await mintWorkflowToken(services(), project.id, runId);
    const unknownProject = await server.request("/users", {
      as: { type: "server", projectId: UNKNOWN_UUID },
      headers: { "x-stack-workflow-token": token },
    });
    expectKnownError(unknownProject, "CURRENT_PROJECT_NOT_FOUND", 400);
    const withWrongKey = await server.request("/users", {
      as: { ...project.server, secretServerKey: "wrong" },
      headers: { "x-stack-workflow-token": token },
    });
    expect(withWrongKey.status, withWrongKey.text).toBe(200);
  });

  it("does not stand in for the admin key", async () => {
    const token = await mintWorkflowToken(services(), project.id, runId);
    const res = await server.request("/internal/workflows", {
      as: { type: "admin", projectId: project.id },
      headers: { "x-stack-workflow-token": token },
    });
    expectKnownError(res, "ADMIN_AUTHENTICATION_REQUIRED", 401);
  });

  it("is swept by housekeeping a day after it expired, with the run log past its 90 days", async () => {
    const token = await mintWorkflowToken(services(), project.id, runId);
    const day = 24 * 3600 * 1000;
    expect(await deleteExpiredWorkflowTokens(services().db, new Date(server.clock.now() + day))).toBe(0);
    expect(
      await deleteExpiredWorkflowTokens(services().db, new Date(server.clock.now() + WORKFLOW_TOKEN_LIFETIME_MILLIS + day + 1)),
    ).toBeGreaterThan(0);
    expectKnownError(await get(token), "WORKFLOW_TOKEN_DOES_NOT_EXIST", 400);
    const later = new Date(server.clock.now() + WORKFLOW_RUNS_KEPT_MILLIS + 1000);
    expect(await deleteOldWorkflowRuns(services().db, new Date(server.clock.now()))).toBe(0);
    expect(await deleteOldWorkflowRuns(services().db, later)).toBeGreaterThan(0);
    expect(await services().db.select().from(workflowRuns).where(eq(workflowRuns.id, runId))).toEqual([]);
  });
});

describe("the admin endpoints", () => {
  it("create, read, list, update and delete a workflow", async () => {
    const created = await server.request("/internal/workflows", {
      method: "POST",
      as: project.ownerAdmin,
      body: { display_name: "  Sync  ", trigger_event_types: ["team.created", "team.created"], source: "export default () => {};" },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as string;
    expect(created.body).toMatchObject({ display_name: "Sync", trigger_event_types: ["team.created"], enabled: true });
    expect((await server.request(`/internal/workflows/${id}`, { as: project.admin })).body).toEqual(created.body);
    const listed = await server.request("/internal/workflows", { as: project.admin });
    expect(listed.body.items.map((w: { id: string }) => w.id)).toContain(id);
    const updated = await server.request(`/internal/workflows/${id}`, {
      method: "PATCH",
      as: project.admin,
      body: { enabled: false, trigger_event_types: ["user.deleted"] },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ display_name: "Sync", enabled: false, trigger_event_types: ["user.deleted"] });
    await deleteWorkflow(id);
    expectKnownError(await server.request(`/internal/workflows/${id}`, { as: project.admin }), "WORKFLOW_NOT_FOUND", 404);
  });

  it("refuse what is not a workflow: bad fields, unknown ids, another project's workflow", async () => {
    const post = (body: unknown) => server.request("/internal/workflows", { method: "POST", as: project.admin, body });
    expectSchemaErrorAt(await post({ display_name: "", trigger_event_types: ["user.created"], source: "" }), "body.display_name");
    expectSchemaErrorAt(await post({ display_name: "x", trigger_event_types: ["user.exploded"], source: "" }), "body.trigger_event_types");
    expectSchemaErrorAt(await post({ display_name: "x", trigger_event_types: [], source: "" }), "body.trigger_event_types");
    expectSchemaErrorAt(await post({ display_name: "x", trigger_event_types: ["user.created"] }), "body.source");
    const theirs = await createWorkflow({}, other);
    try {
      for (const id of [UNKNOWN_UUID, "not-a-uuid", theirs.id]) {
        for (const [method, path] of [
          ["GET", `/internal/workflows/${id}`],
          ["PATCH", `/internal/workflows/${id}`],
          ["DELETE", `/internal/workflows/${id}`],
          ["GET", `/internal/workflows/${id}/runs`],
        ] as const) {
          const res = await server.request(path, { method, as: project.admin, body: method === "PATCH" ? { enabled: false } : undefined });
          expectKnownError(res, "WORKFLOW_NOT_FOUND", 404);
          expect(res.body.details).toEqual({ workflow_id: id });
        }
      }
      const patch = await server.request(`/internal/workflows/${theirs.id}`, { method: "PATCH", as: other.admin, body: { source: 5 } });
      expectSchemaErrorAt(patch, "body.source");
    } finally {
      await deleteWorkflow(theirs.id, other);
    }
  });

  it("refuse a source that does not compile or imports a module when it is saved, and keep what was there", async () => {
    const post = await server.request("/internal/workflows", {
      method: "POST",
      as: project.admin,
      body: { display_name: "Broken", trigger_event_types: ["user.created"], source: "export default function ( {" },
    });
    expectKnownError(post, "SCHEMA_ERROR", 400);
    expect(post.body.error).toMatch(/^body\.source: The workflow does not compile: /);
    const listed = await server.request("/internal/workflows", { as: project.admin });
    expect(listed.body.items.map((w: { display_name: string }) => w.display_name)).not.toContain("Broken");
    const workflow = await createWorkflow();
    try {
      const patch = await server.request(`/internal/workflows/${workflow.id}`, {
        method: "PATCH",
        as: project.admin,
        body: { source: `import fs from "fs"; export default () => fs;`, enabled: false },
      });
      expectKnownError(patch, "SCHEMA_ERROR", 400);
      expect(patch.body.error).toMatch(/^body\.source: .*"fs" cannot be imported/);
      const read = await server.request(`/internal/workflows/${workflow.id}`, { as: project.admin });
      expect(read.body).toMatchObject({ source: SET_METADATA, enabled: true });
    } finally {
      await deleteWorkflow(workflow.id);
    }
  });

  it("are for admins only", async () => {
    for (const as of [project.server, project.client]) {
      expectKnownError(await server.request("/internal/workflows", { as }), "INSUFFICIENT_ACCESS_TYPE", 401);
      const post = await server.request("/internal/workflows", {
        method: "POST",
        as,
        body: { display_name: "x", trigger_event_types: ["user.created"], source: "" },
      });
      expectKnownError(post, "INSUFFICIENT_ACCESS_TYPE", 401);
      expectKnownError(await server.request(`/internal/workflows/${randomUUID()}/runs`, { as }), "INSUFFICIENT_ACCESS_TYPE", 401);
    }
  });
});
