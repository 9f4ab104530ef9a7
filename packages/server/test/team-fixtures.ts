/**
 * Building blocks for the team suites: a project that lets clients create
 * teams, teams and members made through the server API, and permission
 * definitions and grants written straight to the database (with the cache
 * events a real write publishes).
 */
import { and, eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { teamMembers, teamPermissionGrants, permissionDefinitions } from "../src/db/schema/index.ts";
import { record } from "../src/events/transaction.ts";
import { createProject, patchProjectConfig, type Project } from "./fixtures.ts";
import type { Auth, TestServer } from "./harness.ts";

/** A project whose clients may create teams; `config` adds to (or overrides) that. */
export async function createTeamsProject(server: TestServer, config: Record<string, unknown> = {}): Promise<Project> {
  const project = await createProject(server);
  await patchProjectConfig(server, project, { client_team_creation_enabled: true, ...config });
  return project;
}

export async function createTeam(server: TestServer, as: Auth, body: Record<string, unknown> = {}) {
  const res = await server.request("/teams", { method: "POST", as, body: { display_name: "A team", ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; display_name: string } & Record<string, unknown>;
}

export async function addMember(server: TestServer, project: Pick<Project, "server">, teamId: string, userId: string) {
  const res = await server.request(`/team-memberships/${teamId}/${userId}`, { method: "POST", as: project.server, body: {} });
  expect(res.status, res.text).toBe(201);
}

/** A custom team permission definition, as the admin endpoints would store it. */
export async function defineTeamPermission(server: TestServer, projectId: string, id: string, contained: string[]) {
  const { db, events } = server.instance.services;
  await events.transaction(db, async (tx) => {
    await tx.insert(permissionDefinitions).values({ projectId, id, scope: "team", containedPermissionIds: contained });
    await record(tx, { type: "permission_definitions.updated", projectId, branchId: "main", data: { id: projectId } });
  });
}

/** Grants a team permission to a member, as the grant endpoint would. */
export async function grantTeamPermission(server: TestServer, projectId: string, teamId: string, userId: string, permissionId: string) {
  const { db, events } = server.instance.services;
  await events.transaction(db, async (tx) => {
    await tx.insert(teamPermissionGrants).values({ projectId, teamId, userId, permissionId });
    await record(tx, {
      type: "team_permission.created",
      projectId,
      branchId: "main",
      data: { id: permissionId, team_id: teamId, user_id: userId },
    });
  });
}

/** The permissions granted directly to a member, sorted. */
export async function grantsOf(server: TestServer, teamId: string, userId: string): Promise<string[]> {
  const rows = await server.instance.services.db
    .select({ id: teamPermissionGrants.permissionId })
    .from(teamPermissionGrants)
    .where(and(eq(teamPermissionGrants.teamId, teamId), eq(teamPermissionGrants.userId, userId)));
  return rows.map((row) => row.id).sort();
}

export async function memberCount(server: TestServer, teamId: string): Promise<number> {
  const [row] = await server.instance.services.db
    .select({ n: sql<number>`count(*)::int` })
    .from(teamMembers)
    .where(eq(teamMembers.teamId, teamId));
  return row!.n;
}
