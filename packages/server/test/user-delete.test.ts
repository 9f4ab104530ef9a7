/**
 * Deleting a user (domain/users/delete.ts), which both DELETE /users/{id} and
 * DELETE /users/me call. A request's tenancy is its project and branch: a
 * user is deleted only through the branch they live in. Every project has one
 * branch today (http/auth.ts refuses any other), so the branch rule is checked
 * on the domain function itself.
 */
import { DEFAULT_BRANCH_ID } from "@latchkey/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deleteUser } from "../src/domain/users/delete.ts";
import { createProject, signUpUser, type Project, UNKNOWN_UUID } from "./fixtures.ts";
import { createTestServer, type TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;
let other: Project;

beforeAll(async () => {
  server = await createTestServer();
  project = await createProject(server);
  other = await createProject(server, project.owner);
});
afterAll(() => server.close());

function remove(projectId: string, branchId: string, userId: string) {
  const { db, events } = server.instance.services;
  return deleteUser(db, events, { projectId, branchId }, userId);
}

async function exists(userId: string): Promise<boolean> {
  return (await server.request(`/users/${userId}`, { as: project.server })).status === 200;
}

describe("deleteUser", () => {
  it("deletes the user of the project's branch, once", async () => {
    const user = await signUpUser(server, project);
    expect(await remove(project.id, DEFAULT_BRANCH_ID, user.userId)).toBe(true);
    expect(await exists(user.userId)).toBe(false);
    expect(await remove(project.id, DEFAULT_BRANCH_ID, user.userId)).toBe(false);
  });

  it("leaves a user of another branch of the same project alone", async () => {
    const user = await signUpUser(server, project);
    expect(await remove(project.id, "another-branch", user.userId)).toBe(false);
    expect(await exists(user.userId)).toBe(true);
  });

  it("leaves a user of another project alone", async () => {
    const user = await signUpUser(server, project);
    expect(await remove(other.id, DEFAULT_BRANCH_ID, user.userId)).toBe(false);
    expect(await exists(user.userId)).toBe(true);
  });

  it("reports an unknown user as not deleted", async () => {
    expect(await remove(project.id, DEFAULT_BRANCH_ID, UNKNOWN_UUID)).toBe(false);
  });
});
