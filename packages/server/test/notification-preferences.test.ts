/**
 * Notification preferences: defaults, turning Marketing
 * off and on, Transactional staying on, who may read and change whose
 * preferences, and the errors for unknown users, categories and bad input.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject, expectPlainError, expectSchemaError, signUpUser, type EndUser, type Project, UNKNOWN_UUID } from "./fixtures.ts";
import { createTestServer, expectKnownError, type Auth, type TestServer } from "./harness.ts";

const TRANSACTIONAL = "7bb82d33-2f54-4a3d-9d23-82739e0d66ef";
const MARKETING = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c";

const transactional = {
  can_disable: false,
  enabled: true,
  notification_category_id: TRANSACTIONAL,
  notification_category_name: "Transactional",
};
const marketing = (enabled: boolean) => ({
  can_disable: true,
  enabled,
  notification_category_id: MARKETING,
  notification_category_name: "Marketing",
});

let server: TestServer;
let project: Project;
let otherProject: Project;

beforeAll(async () => {
  server = await createTestServer();
  [project, otherProject] = await Promise.all([createProject(server), createProject(server)]);
});
afterAll(() => server?.close());

const read = (as: Auth, userId = "me") => server.request(`/emails/notification-preference/${userId}`, { as });
const patch = (as: Auth, userId: string, categoryId: string, body: unknown) =>
  server.request(`/emails/notification-preference/${userId}/${categoryId}`, { method: "PATCH", as, body });

async function items(as: Auth, userId = "me") {
  const res = await read(as, userId);
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.body)).toEqual(["items", "is_paginated"]);
  expect(res.body.is_paginated).toBe(false);
  return res.body.items;
}

describe("reading", () => {
  it("lists both categories, enabled by default", async () => {
    const user = await signUpUser(server, project);
    expect(await items(user.as)).toEqual([transactional, marketing(true)]);
  });

  it("lets server and admin read any user of the project by id", async () => {
    const user = await signUpUser(server, project);
    expect(await items(project.server, user.userId)).toEqual([transactional, marketing(true)]);
    expect(await items(project.admin, user.userId)).toEqual([transactional, marketing(true)]);
    // A client may name itself by id, too.
    expect(await items(user.as, user.userId)).toEqual([transactional, marketing(true)]);
  });
});

describe("changing", () => {
  it("turns Marketing off and on again for the signed-in user, and only for them", async () => {
    const [user, other] = await Promise.all([signUpUser(server, project), signUpUser(server, project)]);
    const off = await patch(user.as, "me", MARKETING, { enabled: false });
    expect(off.status, off.text).toBe(200);
    expect(off.body).toEqual(marketing(false));
    expect(await items(user.as)).toEqual([transactional, marketing(false)]);
    expect(await items(other.as)).toEqual([transactional, marketing(true)]);
    // Saying the same twice is fine.
    expect((await patch(user.as, "me", MARKETING, { enabled: false })).body).toEqual(marketing(false));
    const on = await patch(user.as, "me", MARKETING, { enabled: true });
    expect(on.body).toEqual(marketing(true));
    expect(await items(project.server, user.userId)).toEqual([transactional, marketing(true)]);
  });

  it("lets server and admin change any user of the project", async () => {
    const user = await signUpUser(server, project);
    expect((await patch(project.server, user.userId, MARKETING, { enabled: false })).body).toEqual(marketing(false));
    expect(await items(user.as)).toEqual([transactional, marketing(false)]);
    expect((await patch(project.admin, user.userId, MARKETING, { enabled: true })).body).toEqual(marketing(true));
    expect(await items(user.as)).toEqual([transactional, marketing(true)]);
  });

  it("refuses to turn Transactional off (400 plain text), and accepts turning it on", async () => {
    const user = await signUpUser(server, project);
    for (const as of [user.as, project.server]) {
      const res = await patch(as, user.userId, TRANSACTIONAL, { enabled: false });
      expectPlainError(res, 400, /Transactional e-mails cannot be turned off/);
    }
    expect(await items(user.as)).toEqual([transactional, marketing(true)]);
    const on = await patch(user.as, "me", TRANSACTIONAL, { enabled: true });
    expect(on.status, on.text).toBe(200);
    expect(on.body).toEqual(transactional);
  });

  it("answers an unknown category with 404 plain text", async () => {
    const user = await signUpUser(server, project);
    expectPlainError(await patch(user.as, "me", UNKNOWN_UUID, { enabled: false }), 404, /Notification category .* not found/);
    expectPlainError(await patch(project.server, user.userId, "Marketing", { enabled: false }), 404, /not found/);
    expect(await items(user.as)).toEqual([transactional, marketing(true)]);
  });

  it("matches the category id case-insensitively", async () => {
    const user = await signUpUser(server, project);
    expect((await patch(user.as, "me", MARKETING.toUpperCase(), { enabled: false })).body).toEqual(marketing(false));
  });
});

describe("access", () => {
  let user: EndUser;
  let other: EndUser;
  beforeAll(async () => {
    [user, other] = await Promise.all([signUpUser(server, project), signUpUser(server, project)]);
  });

  it("gives a client 403 plain text for another user, and changes nothing", async () => {
    expectPlainError(await read(user.as, other.userId), 403, /only act for its own user/);
    expectPlainError(await patch(user.as, other.userId, MARKETING, { enabled: false }), 403, /only act for its own user/);
    expect(await items(other.as)).toEqual([transactional, marketing(true)]);
  });

  it("needs a signed-in user for me", async () => {
    expectKnownError(await read(project.client), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(await read(project.server), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
    expectKnownError(await patch(project.server, "me", MARKETING, { enabled: false }), "CANNOT_GET_OWN_USER_WITHOUT_USER", 400);
  });

  it("answers USER_ID_DOES_NOT_EXIST for an unknown user or another project's user", async () => {
    const stranger = await signUpUser(server, otherProject);
    for (const id of [UNKNOWN_UUID, stranger.userId]) {
      expectKnownError(await read(project.server, id), "USER_ID_DOES_NOT_EXIST", 400);
      expectKnownError(await patch(project.server, id, MARKETING, { enabled: false }), "USER_ID_DOES_NOT_EXIST", 400);
    }
    expect(await items(stranger.as)).toEqual([transactional, marketing(true)]);
  });

  it("needs an access type", async () => {
    expectKnownError(await server.request("/emails/notification-preference/me"), "ACCESS_TYPE_REQUIRED", 400);
  });
});

describe("schema errors", () => {
  it("names what is wrong with the path and body", async () => {
    const user = await signUpUser(server, project);
    const base = `/emails/notification-preference`;
    expectSchemaError(await read(project.server, "not-a-user"), "GET", `${base}/not-a-user`, ["params.user_id must be a valid UUID"]);
    expectSchemaError(await patch(user.as, "me", MARKETING, {}), "PATCH", `${base}/me/${MARKETING}`, ["body.enabled must be defined"]);
    expectSchemaError(await patch(user.as, "me", MARKETING, { enabled: null }), "PATCH", `${base}/me/${MARKETING}`, [
      "body.enabled cannot be null",
    ]);
    expectSchemaError(await patch(user.as, "me", MARKETING, { enabled: "no" }), "PATCH", `${base}/me/${MARKETING}`, [
      'body.enabled must be a `boolean` type, but the final value was: `"no"`.',
    ]);
    expectSchemaError(await patch(user.as, "me", MARKETING, { enabled: false, category: "x" }), "PATCH", `${base}/me/${MARKETING}`, [
      "body contains unknown properties: category",
    ]);
    expect(await items(user.as)).toEqual([transactional, marketing(true)]);
  });
});
