/**
 * Building blocks for the permission tests: teams and memberships made
 * through the domain (as the team endpoints do), and short calls for the
 * permission endpoints.
 */
import { DEFAULT_BRANCH_ID } from "@latchkey/shared";
import { expect } from "vitest";
import { record } from "../src/events/transaction.ts";
import { addTeamMember, createTeamWithCreator, joinedEvents } from "../src/domain/teams/teams.ts";
import type { TeamRole } from "../src/domain/permissions/defaults.ts";
import type { Auth, TestResponse, TestServer } from "./harness.ts";

async function projectRow(server: TestServer, projectId: string) {
  const row = await server.instance.services.projects.get(projectId);
  if (!row) throw new Error(`No project ${projectId}`);
  return row;
}

/** A team with `creatorId` as its creator (who gets the creator defaults); returns its id. */
export async function createTeam(server: TestServer, projectId: string, creatorId: string, displayName = "A team"): Promise<string> {
  const { db, events } = server.instance.services;
  const project = await projectRow(server, projectId);
  return events.transaction(db, async (tx) => {
    const team = await createTeamWithCreator(tx, {
      project,
      branchId: DEFAULT_BRANCH_ID,
      displayName,
      creator: { id: creatorId, displayName: null, profileImageUrl: null },
    });
    await record(tx, { type: "team.created", projectId, branchId: DEFAULT_BRANCH_ID, data: { id: team.id, creator_user_id: creatorId } });
    return team.id;
  });
}

export async function addMember(server: TestServer, projectId: string, teamId: string, userId: string, role: TeamRole = "member") {
  const { db, events } = server.instance.services;
  const project = await projectRow(server, projectId);
  await events.transaction(db, async (tx) => {
    const granted = await addTeamMember(
      tx,
      project,
      DEFAULT_BRANCH_ID,
      teamId,
      { id: userId, displayName: null, profileImageUrl: null },
      role,
    );
    await record(tx, ...joinedEvents({ projectId, branchId: DEFAULT_BRANCH_ID }, teamId, userId, granted));
  });
}

export interface PermissionCalls {
  listTeam(as: Auth, query?: Record<string, string | boolean>): Promise<TestResponse>;
  grantTeam(as: Auth, teamId: string, userId: string, permissionId: string): Promise<TestResponse>;
  revokeTeam(as: Auth, teamId: string, userId: string, permissionId: string): Promise<TestResponse>;
  listProject(as: Auth, query?: Record<string, string | boolean>): Promise<TestResponse>;
  grantProject(as: Auth, userId: string, permissionId: string): Promise<TestResponse>;
  revokeProject(as: Auth, userId: string, permissionId: string): Promise<TestResponse>;
  /** `kind`: "team" or "project" definitions. */
  define(as: Auth, kind: Kind, body: unknown): Promise<TestResponse>;
  definitions(as: Auth, kind: Kind): Promise<TestResponse>;
  definition(as: Auth, kind: Kind, id: string): Promise<TestResponse>;
  patchDefinition(as: Auth, kind: Kind, id: string, body: unknown): Promise<TestResponse>;
  deleteDefinition(as: Auth, kind: Kind, id: string): Promise<TestResponse>;
}

export type Kind = "team" | "project";

export function permissionCalls(server: TestServer): PermissionCalls {
  const r = server.request;
  return {
    listTeam: (as, query = {}) => r("/team-permissions", { as, query }),
    grantTeam: (as, t, u, p) => r(`/team-permissions/${t}/${u}/${encodeURIComponent(p)}`, { method: "POST", as, body: {} }),
    revokeTeam: (as, t, u, p) => r(`/team-permissions/${t}/${u}/${encodeURIComponent(p)}`, { method: "DELETE", as }),
    listProject: (as, query = {}) => r("/project-permissions", { as, query }),
    grantProject: (as, u, p) => r(`/project-permissions/${u}/${encodeURIComponent(p)}`, { method: "POST", as, body: {} }),
    revokeProject: (as, u, p) => r(`/project-permissions/${u}/${encodeURIComponent(p)}`, { method: "DELETE", as }),
    define: (as, kind, body) => r(`/${kind}-permission-definitions`, { method: "POST", as, body }),
    definitions: (as, kind) => r(`/${kind}-permission-definitions`, { as }),
    definition: (as, kind, id) => r(`/${kind}-permission-definitions/${encodeURIComponent(id)}`, { as }),
    patchDefinition: (as, kind, id, body) => r(`/${kind}-permission-definitions/${encodeURIComponent(id)}`, { method: "PATCH", as, body }),
    deleteDefinition: (as, kind, id) => r(`/${kind}-permission-definitions/${encodeURIComponent(id)}`, { method: "DELETE", as }),
  };
}

/** Defines a permission and expects 201. */
export async function defined(calls: PermissionCalls, as: Auth, kind: Kind, id: string, contained: string[] = [], description?: string) {
  const res = await calls.define(as, kind, { id, contained_permission_ids: contained, ...(description ? { description } : {}) });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** The permission ids of a list answer. */
export function ids(res: TestResponse): string[] {
  expect(res.status, res.text).toBe(200);
  return (res.body.items as { id: string }[]).map((item) => item.id);
}
