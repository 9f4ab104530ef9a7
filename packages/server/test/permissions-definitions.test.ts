/**
 * Permission definitions, team and project: admin-only CRUD, the system
 * permissions, one id namespace across scopes (also under concurrency), the
 * id rules, and one project's admin unable to see or change another's.
 */
import { SYSTEM_TEAM_PERMISSIONS } from "@latchkey/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject, expectSchemaErrorIncluding, patchProjectConfig, signUpUser, type EndUser, type Project } from "./fixtures.ts";
import { createTestServer, expectKnownError, type TestServer } from "./harness.ts";
import { defined, ids, permissionCalls, type Kind, type PermissionCalls } from "./permission-fixtures.ts";

let server: TestServer;
let calls: PermissionCalls;
let project: Project;
let other: Project;
let user: EndUser;

beforeAll(async () => {
  server = await createTestServer();
  calls = permissionCalls(server);
  [project, other] = await Promise.all([createProject(server), createProject(server)]);
  user = await signUpUser(server, project);
});
afterAll(() => server?.close());

const SYSTEM_IDS = Object.keys(SYSTEM_TEAM_PERMISSIONS).sort();

describe("default permission lists", () => {
  it("are listed by id in the project config, whatever order they were given in", async () => {
    const p = await createProject(server);
    await defined(calls, p.admin, "project", "zeta");
    await defined(calls, p.admin, "project", "alpha");
    await patchProjectConfig(server, p, {
      team_creator_default_permissions: [{ id: "team_member" }, { id: "team_admin" }, { id: "$update_team" }],
      user_default_permissions: [{ id: "zeta" }, { id: "alpha" }],
    });
    const current = await server.request("/internal/projects/current", { as: p.admin });
    expect(current.status, current.text).toBe(200);
    expect(current.body.config.team_creator_default_permissions).toEqual([
      { id: "$update_team" },
      { id: "team_admin" },
      { id: "team_member" },
    ]);
    expect(current.body.config.user_default_permissions).toEqual([{ id: "alpha" }, { id: "zeta" }]);
  });
});

describe("listing and reading", () => {
  it("lists the system permissions and the new project's defaults in team scope, sorted by id", async () => {
    const res = await calls.definitions(project.admin, "team");
    expect(ids(res)).toEqual([...SYSTEM_IDS, "team_admin", "team_member"]);
    expect(res.body.items[0]).toEqual({
      contained_permission_ids: [],
      description: SYSTEM_TEAM_PERMISSIONS.$delete_team,
      id: "$delete_team",
    });
    expect(res.body.items.at(-1)).toEqual({
      contained_permission_ids: ["$invite_members", "$read_members"],
      description: expect.any(String),
      id: "team_member",
    });
    expect(ids(await calls.definitions(project.ownerAdmin, "project"))).toEqual([]);
    // The system permissions' descriptions, word for word as clients of the reference API show them.
    const described = Object.fromEntries(
      (res.body.items as { id: string; description?: string }[]).filter((d) => d.id.startsWith("$")).map((d) => [d.id, d.description]),
    );
    expect(described).toEqual({
      $update_team: "Update the team information",
      $delete_team: "Delete the team",
      $read_members: "Read and list the other members of the team",
      $remove_members: "Remove other members from the team",
      $invite_members: "Invite other users to the team",
      $manage_api_keys: "Create and manage API keys for the team",
    });
  });

  it("reads one definition; a system one in team scope only", async () => {
    expect((await calls.definition(project.admin, "team", "team_admin")).body.contained_permission_ids).toEqual(SYSTEM_IDS);
    expect((await calls.definition(project.admin, "team", "$read_members")).body.id).toBe("$read_members");
    expectKnownError(await calls.definition(project.admin, "project", "$read_members"), "PERMISSION_NOT_FOUND", 404);
    expectKnownError(await calls.definition(project.admin, "team", "nothing_here"), "PERMISSION_NOT_FOUND", 404);
    const scope = await calls.definition(project.admin, "project", "team_admin");
    expectKnownError(scope, "WRONG_PERMISSION_SCOPE", 404);
    expect(scope.body.details).toEqual({ permission_id: "team_admin", expected_scope: "project", actual_scope: "team" });
  });

  it("is for admins only", async () => {
    for (const kind of ["team", "project"] as Kind[]) {
      expectKnownError(await calls.definitions(project.server, kind), "INSUFFICIENT_ACCESS_TYPE", 401);
      expectKnownError(await calls.definitions(user.as, kind), "INSUFFICIENT_ACCESS_TYPE", 401);
      expectKnownError(await calls.define(project.server, kind, { id: "nope" }), "INSUFFICIENT_ACCESS_TYPE", 401);
      expectKnownError(await calls.definition(project.server, kind, "team_admin"), "INSUFFICIENT_ACCESS_TYPE", 401);
      expectKnownError(await calls.patchDefinition(project.server, kind, "team_admin", {}), "INSUFFICIENT_ACCESS_TYPE", 401);
      expectKnownError(await calls.deleteDefinition(user.as, kind, "team_admin"), "INSUFFICIENT_ACCESS_TYPE", 401);
    }
  });
});

describe("creating", () => {
  it("creates team and project definitions; description is left out when not given", async () => {
    const team = await calls.define(project.admin, "team", {
      id: "docs:write",
      description: "Write the docs",
      contained_permission_ids: ["$update_team", "team_member", "$update_team"],
    });
    expect(team.status, team.text).toBe(201);
    expect(team.body).toEqual({
      contained_permission_ids: ["$update_team", "team_member"],
      description: "Write the docs",
      id: "docs:write",
    });
    expect((await calls.definition(project.admin, "team", "docs:write")).body).toEqual(team.body);
    const bare = await calls.define(project.admin, "project", { id: "reports" });
    expect(bare.status, bare.text).toBe(201);
    expect(bare.body).toEqual({ contained_permission_ids: [], id: "reports" });
    expect(ids(await calls.definitions(project.admin, "project"))).toEqual(["reports"]);
  });

  it("keeps one id namespace across scopes", async () => {
    await defined(calls, project.admin, "project", "shared_id");
    const res = await calls.define(project.admin, "team", { id: "shared_id" });
    expectKnownError(res, "PERMISSION_ID_ALREADY_EXISTS", 400);
    expect(res.body.details).toEqual({ permission_id: "shared_id" });
    expectKnownError(await calls.define(project.admin, "project", { id: "team_admin" }), "PERMISSION_ID_ALREADY_EXISTS", 400);
  });

  it("lets one of two concurrent creations of an id win", async () => {
    const [a, b] = await Promise.all([
      calls.define(project.admin, "team", { id: "raced", description: "first" }),
      calls.define(project.admin, "project", { id: "raced", description: "second" }),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 400]);
    expectKnownError(a.status === 400 ? a : b, "PERMISSION_ID_ALREADY_EXISTS", 400);
    const winner = a.status === 201 ? a : b;
    const kind: Kind = winner === a ? "team" : "project";
    expect((await calls.definition(project.admin, kind, "raced")).body).toEqual(winner.body);
  });

  it("requires contained permissions defined in the same scope", async () => {
    const missing = await calls.define(project.admin, "team", { id: "needs_missing", contained_permission_ids: ["not_there"] });
    expectKnownError(missing, "CONTAINED_PERMISSION_NOT_FOUND", 400);
    expect(missing.body.details).toEqual({ permission_id: "not_there" });
    expectKnownError(
      await calls.define(project.admin, "team", { id: "cross", contained_permission_ids: ["reports"] }),
      "CONTAINED_PERMISSION_NOT_FOUND",
      400,
    );
    expectKnownError(
      await calls.define(project.admin, "project", { id: "cross", contained_permission_ids: ["$read_members"] }),
      "CONTAINED_PERMISSION_NOT_FOUND",
      400,
    );
    expectKnownError(await calls.definition(project.admin, "project", "cross"), "PERMISSION_NOT_FOUND", 404);
  });

  it("checks ids", async () => {
    expectSchemaErrorIncluding(
      await calls.define(project.admin, "team", { id: "$nope" }),
      'body.id may not start with "$": only system permissions do',
    );
    expectSchemaErrorIncluding(
      await calls.define(project.admin, "team", { id: "$update_team" }),
      'body.id may not start with "$": only system permissions do',
    );
    expectSchemaErrorIncluding(
      await calls.define(project.admin, "team", { id: "Upper" }),
      'body.id may contain only lowercase letters, numbers, ":" and "_"',
    );
    expectSchemaErrorIncluding(
      await calls.define(project.admin, "team", { id: "ok", contained_permission_ids: ["$nope"] }),
      "body.contained_permission_ids[0]: Invalid system permission",
    );
    expectSchemaErrorIncluding(await calls.definition(project.admin, "team", "$nope"), "params.permission_id: Invalid system permission");
    expectKnownError(await calls.define(project.admin, "team", { id: "" }), "SCHEMA_ERROR", 400);
    expectKnownError(await calls.define(project.admin, "team", { id: "x".repeat(256) }), "SCHEMA_ERROR", 400);
    expectKnownError(await calls.define(project.admin, "team", { id: "extra", color: "red" }), "SCHEMA_ERROR", 400);
  });
});

describe("updating", () => {
  it("changes what is given and keeps what is omitted", async () => {
    await defined(calls, project.admin, "team", "editor", ["$update_team"], "Edits");
    const described = await calls.patchDefinition(project.admin, "team", "editor", { description: "Edits things" });
    expect(described.status, described.text).toBe(200);
    expect(described.body).toEqual({ contained_permission_ids: ["$update_team"], description: "Edits things", id: "editor" });
    const contained = await calls.patchDefinition(project.admin, "team", "editor", { contained_permission_ids: ["$read_members"] });
    expect(contained.body).toEqual({ contained_permission_ids: ["$read_members"], description: "Edits things", id: "editor" });
    expect((await calls.definition(project.admin, "team", "editor")).body).toEqual(contained.body);
  });

  it("refuses system ids, unknown ids, the other scope, a taken id, unknown contained ids", async () => {
    expectKnownError(await calls.patchDefinition(project.admin, "team", "$update_team", { description: "x" }), "PERMISSION_NOT_FOUND", 404);
    expectKnownError(await calls.patchDefinition(project.admin, "team", "nothing_here", {}), "PERMISSION_NOT_FOUND", 404);
    expectKnownError(await calls.patchDefinition(project.admin, "project", "team_admin", {}), "WRONG_PERMISSION_SCOPE", 404);
    expectKnownError(await calls.patchDefinition(project.admin, "team", "reports", {}), "WRONG_PERMISSION_SCOPE", 404);
    expectKnownError(
      await calls.patchDefinition(project.admin, "team", "editor", { id: "team_admin" }),
      "PERMISSION_ID_ALREADY_EXISTS",
      400,
    );
    expectKnownError(await calls.patchDefinition(project.admin, "team", "editor", { id: "reports" }), "PERMISSION_ID_ALREADY_EXISTS", 400);
    expectKnownError(
      await calls.patchDefinition(project.admin, "team", "editor", { contained_permission_ids: ["reports"] }),
      "CONTAINED_PERMISSION_NOT_FOUND",
      400,
    );
    expectSchemaErrorIncluding(
      await calls.patchDefinition(project.admin, "team", "editor", { id: "$read_members" }),
      'body.id may not start with "$": only system permissions do',
    );
    expect((await calls.definition(project.admin, "team", "editor")).body.contained_permission_ids).toEqual(["$read_members"]);
  });
});

describe("deleting", () => {
  it("deletes a definition once; system ids, unknown ids and the other scope are refused", async () => {
    await defined(calls, project.admin, "project", "short_lived");
    expectKnownError(await calls.deleteDefinition(project.admin, "team", "short_lived"), "WRONG_PERMISSION_SCOPE", 404);
    const res = await calls.deleteDefinition(project.admin, "project", "short_lived");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ success: true });
    expectKnownError(await calls.definition(project.admin, "project", "short_lived"), "PERMISSION_NOT_FOUND", 404);
    expectKnownError(await calls.deleteDefinition(project.admin, "project", "short_lived"), "PERMISSION_NOT_FOUND", 404);
    expectKnownError(await calls.deleteDefinition(project.admin, "team", "$delete_team"), "PERMISSION_NOT_FOUND", 404);
    expectKnownError(await calls.deleteDefinition(project.admin, "project", "$delete_team"), "PERMISSION_NOT_FOUND", 404);
    expect(ids(await calls.definitions(project.admin, "team"))).toContain("$delete_team");
  });
});

describe("project isolation", () => {
  it("keeps each project's definitions to itself", async () => {
    await defined(calls, other.admin, "team", "other_only");
    expectKnownError(await calls.definition(project.admin, "team", "other_only"), "PERMISSION_NOT_FOUND", 404);
    expectKnownError(
      await calls.patchDefinition(project.admin, "team", "other_only", { description: "mine" }),
      "PERMISSION_NOT_FOUND",
      404,
    );
    expectKnownError(await calls.deleteDefinition(project.admin, "team", "other_only"), "PERMISSION_NOT_FOUND", 404);
    expect(ids(await calls.definitions(project.admin, "team"))).not.toContain("other_only");
    // The same id may exist in each project.
    await defined(calls, project.admin, "team", "other_only");
    expect((await calls.definition(other.admin, "team", "other_only")).body).toEqual({ contained_permission_ids: [], id: "other_only" });
    // Project A's admin key is no key for project B.
    expectKnownError(await calls.definitions({ ...project.admin, projectId: other.id }, "team"), "INVALID_SUPER_SECRET_ADMIN_KEY", 401);
  });
});
