/**
 * Building blocks for tests: an owner on the internal project, a project they
 * own with fresh keys, and end users of that project.
 */
import { expect } from "vitest";
import type { Auth, TestServer } from "./harness.ts";

let counter = 0;
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.com`;
}

export const PASSWORD = "correct horse battery staple";

export interface Owner {
  email: string;
  userId: string;
  accessToken: string;
  refreshToken: string;
  teamId: string;
}

export async function signUpOwner(server: TestServer): Promise<Owner> {
  const email = uniqueEmail("owner");
  const res = await server.request("/auth/password/sign-up", {
    method: "POST",
    as: server.internal.client,
    body: { email, password: PASSWORD },
  });
  expect(res.status, res.text).toBe(200);
  const me = await server.request("/users/me", {
    as: { ...server.internal.client, accessToken: res.body.access_token },
  });
  expect(me.status, me.text).toBe(200);
  return {
    email,
    userId: res.body.user_id,
    accessToken: res.body.access_token,
    refreshToken: res.body.refresh_token,
    teamId: me.body.selected_team_id,
  };
}

export interface Project {
  id: string;
  owner: Owner;
  client: Auth;
  server: Auth;
  admin: Auth;
  /** Admin access through the owner's token instead of a key. */
  ownerAdmin: Auth;
}

export async function createProject(server: TestServer, owner?: Owner, config: Record<string, unknown> = {}): Promise<Project> {
  owner ??= await signUpOwner(server);
  const created = await server.request("/internal/projects", {
    method: "POST",
    as: { ...server.internal.client, accessToken: owner.accessToken },
    body: { display_name: "Test project", owner_team_id: owner.teamId, config },
  });
  expect(created.status, created.text).toBe(201);
  const id = created.body.id as string;
  const ownerAdmin: Auth = { type: "admin", projectId: id, adminAccessToken: owner.accessToken };
  const keys = await server.request("/internal/api-keys", {
    method: "POST",
    as: ownerAdmin,
    body: {
      description: "test keys",
      expires_at_millis: Date.now() + 24 * 3600_000,
      has_publishable_client_key: true,
      has_secret_server_key: true,
      has_super_secret_admin_key: true,
    },
  });
  expect(keys.status, keys.text).toBe(200);
  return {
    id,
    owner,
    ownerAdmin,
    client: { type: "client", projectId: id, publishableClientKey: keys.body.publishable_client_key },
    server: { type: "server", projectId: id, secretServerKey: keys.body.secret_server_key },
    admin: { type: "admin", projectId: id, superSecretAdminKey: keys.body.super_secret_admin_key },
  };
}

export interface EndUser {
  email: string;
  userId: string;
  accessToken: string;
  refreshToken: string;
  /** Client auth acting as this user. */
  as: Auth;
}

export async function signUpUser(server: TestServer, project: Pick<Project, "client">, email = uniqueEmail()): Promise<EndUser> {
  const res = await server.request("/auth/password/sign-up", {
    method: "POST",
    as: project.client,
    body: { email, password: PASSWORD },
  });
  expect(res.status, res.text).toBe(200);
  return {
    email,
    userId: res.body.user_id,
    accessToken: res.body.access_token,
    refreshToken: res.body.refresh_token,
    as: { ...project.client, accessToken: res.body.access_token },
  };
}
