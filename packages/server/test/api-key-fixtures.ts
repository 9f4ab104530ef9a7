/**
 * Building blocks for the user and team API key suites: a project with one
 * kind of key turned on, creating keys with the defaults a suite names, and
 * what both kinds answer when their setting is off or their owner is deleted.
 */
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { userTeamApiKeys } from "../src/db/schema/index.ts";
import { createProject, expectPlainError, serverWithProject, type Project } from "./fixtures.ts";
import { expectKnownError, type Auth, type TestResponse, type TestServer } from "./harness.ts";

export type KeyKind = "user" | "team";

/** The project setting that turns a kind of key on. */
const SETTING = { user: "allow_user_api_keys", team: "allow_team_api_keys" } as const;

/** What every endpoint of a kind answers while its setting is off. */
const OFF_MESSAGE = {
  user: "User API keys are not enabled for this project.",
  team: "Team API keys are not enabled for this project.",
} as const;

/** A test server and one project on it with `kind` API keys turned on, as the key suites start (in beforeAll). */
export function serverWithApiKeys(kind: KeyKind): Promise<{ server: TestServer; project: Project }> {
  return serverWithProject({ project: { [SETTING[kind]]: true } });
}

/** Another project on `server` with `kind` API keys turned on: for keys that must not be reachable from it. */
export function projectWithApiKeys(server: TestServer, kind: KeyKind): Promise<Project> {
  return createProject(server, undefined, { [SETTING[kind]]: true });
}

/**
 * The kind's create endpoint: `create` sends the body as it is; `created` fills in `defaults()` under the body
 * and expects the key back. Both getters are read at each call, so a suite may name what its beforeAll made.
 */
export function keyCreation(server: () => TestServer, kind: KeyKind, defaults: () => Record<string, unknown>) {
  const create = (as: Auth, body: Record<string, unknown>) => server().request(`/${kind}-api-keys`, { method: "POST", as, body });
  return {
    create,
    async created(as: Auth, body: Record<string, unknown> = {}) {
      const res = await create(as, { ...defaults(), ...body });
      expect(res.status, res.text).toBe(200);
      return res.body;
    },
  };
}

/** The answer of a `kind` endpoint while the setting is off: 400, in plain text. */
export function expectKeysOff(res: TestResponse, kind: KeyKind): void {
  expectPlainError(res, 400);
  expect(res.text).toBe(OFF_MESSAGE[kind]);
}

/**
 * Deletes the key's owner at `ownerPath` (`/users/{id}`, `/teams/{id}`) as the project's server, and expects
 * the key to go along: accepted by the check before, API_KEY_NOT_FOUND after, and its row gone.
 */
export async function expectKeyGoesWithOwner(
  server: TestServer,
  project: Project,
  kind: KeyKind,
  key: { id: string; value: string },
  ownerPath: string,
): Promise<void> {
  const check = () => server.request(`/${kind}-api-keys/check`, { method: "POST", as: project.server, body: { api_key: key.value } });
  expect((await check()).status).toBe(200);
  const deleted = await server.request(ownerPath, { method: "DELETE", as: project.server });
  expect(deleted.status, deleted.text).toBe(200);
  expectKnownError(await check(), "API_KEY_NOT_FOUND", 404);
  expect(await server.instance.services.db.select().from(userTeamApiKeys).where(eq(userTeamApiKeys.id, key.id))).toEqual([]);
}
