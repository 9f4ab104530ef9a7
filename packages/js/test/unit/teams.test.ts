/**
 * The SDK's teams, invitations and permissions against a scripted server:
 * what each method sends, how answers map to objects, that reads are shared
 * through the cache and that writes make them read again.
 */
import { describe, expect, it } from "vitest";
import type { ClientTeamJson, ClientUserJson, ServerTeamJson } from "@latchkey/shared/api/index";
import { KnownErrors, ServerTeam, StackAdminApp, StackClientApp, StackServerApp, Team } from "../../src/index.ts";
import { jsonResponse, knownErrorResponse, makeAccessToken } from "./helpers.ts";

const TEAM_ID = "6c0a1bb4-7a7b-4f0e-9f53-2f3f4d7c1a01";
const OTHER_TEAM_ID = "6c0a1bb4-7a7b-4f0e-9f53-2f3f4d7c1a02";
const USER_ID = "0b0a1bb4-7a7b-4f0e-9f53-2f3f4d7c1a03";
const CODE = "a".repeat(45);

const team = (id = TEAM_ID, name = "Crew"): ClientTeamJson => ({
  id,
  display_name: name,
  profile_image_url: null,
  client_metadata: { plan: "pro" },
  client_read_only_metadata: null,
});
const serverTeam = (id = TEAM_ID): ServerTeamJson => ({
  ...team(id),
  created_at_millis: 1_700_000_000_000,
  server_metadata: { internal: 1 },
});

function userJson(selected: ClientTeamJson | null = null): ClientUserJson {
  return {
    id: USER_ID,
    auth_with_email: true,
    client_metadata: null,
    client_read_only_metadata: null,
    display_name: "Ada",
    has_password: true,
    is_anonymous: false,
    is_restricted: false,
    oauth_providers: [],
    otp_auth_enabled: false,
    passkey_auth_enabled: false,
    primary_email: "ada@example.com",
    primary_email_verified: true,
    profile_image_url: null,
    requires_totp_mfa: false,
    restricted_by_admin: false,
    restricted_by_admin_reason: null,
    restricted_reason: null,
    selected_team_id: selected?.id ?? null,
    selected_team: selected,
    signed_up_at_millis: 1_700_000_000_000,
  };
}

type Route = (request: { method: string; path: string; query: URLSearchParams; body: any }) => Response | undefined;

/** A fetch answering by route; every request is recorded as `METHOD /path?query` with its body. */
function scripted(route: Route) {
  const sent: { line: string; body: any; headers: Record<string, string> }[] = [];
  const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
    const url = new URL(String(input));
    const path = url.pathname.replace(/^\/api\/v1/, "");
    const method = (init?.method ?? "GET").toUpperCase();
    const body = init?.body === undefined ? undefined : JSON.parse(String(init.body));
    sent.push({ line: `${method} ${path}${url.search}`, body, headers: init?.headers as Record<string, string> });
    const answer = route({ method, path, query: url.searchParams, body });
    if (!answer) throw new Error(`unscripted request: ${method} ${path}${url.search}`);
    return answer;
  }) as typeof globalThis.fetch;
  return { fetch, sent, lines: () => sent.map((s) => s.line) };
}

const list = (items: unknown[]) => jsonResponse({ items, is_paginated: false });

async function signedInClient(route: Route, selected: ClientTeamJson | null = null) {
  const server = scripted((request) => {
    if (request.method === "GET" && request.path === "/users/me") return jsonResponse(userJson(selected));
    return route(request);
  });
  const app = new StackClientApp({ baseUrl: "http://api.test", projectId: "p", tokenStore: "memory", fetch: server.fetch });
  await app.signInWithTokens({ accessToken: makeAccessToken(Date.now() + 3_600_000), refreshToken: "refresh" });
  const user = await app.getUser({ or: "throw" });
  return { app, user, server };
}

describe("the signed-in user's teams", () => {
  it("creates a team as its creator and selects it", async () => {
    const { user, server } = await signedInClient((r) => {
      if (r.method === "POST" && r.path === "/teams") return jsonResponse(team(), 201);
      if (r.method === "PATCH" && r.path === "/users/me") return jsonResponse(userJson(team()));
    });
    const created = await user.createTeam({ displayName: "Crew" });
    expect(created).toBeInstanceOf(Team);
    expect(created).toMatchObject({ id: TEAM_ID, displayName: "Crew", profileImageUrl: null, clientMetadata: { plan: "pro" } });
    expect(server.sent.slice(-2).map((s) => [s.line, s.body])).toEqual([
      ["POST /teams", { display_name: "Crew", creator_user_id: "me" }],
      ["PATCH /users/me", { selected_team_id: TEAM_ID }],
    ]);
  });

  it("lists its teams once for concurrent reads, finds one by id, and reads them again after a team changes", async () => {
    let name = "Crew";
    const { user, server } = await signedInClient((r) => {
      if (r.method === "GET" && r.path === "/teams") return list([team(TEAM_ID, name), team(OTHER_TEAM_ID, "Other")]);
      if (r.method === "PATCH" && r.path === `/teams/${TEAM_ID}`) return jsonResponse(team(TEAM_ID, (name = r.body.display_name)));
    });
    const [one, two] = await Promise.all([user.listTeams(), user.listTeams()]);
    expect(two).toBe(one);
    expect(server.lines().filter((l) => l.startsWith("GET /teams"))).toEqual(["GET /teams?user_id=me"]);
    expect((await user.getTeam(OTHER_TEAM_ID))?.displayName).toBe("Other");
    expect(await user.getTeam("nope")).toBeNull();

    await one[0]!.update({ displayName: "Renamed" });
    expect(server.sent.at(-1)).toMatchObject({ line: `PATCH /teams/${TEAM_ID}`, body: { display_name: "Renamed" } });
    expect((await user.getTeam(TEAM_ID))?.displayName).toBe("Renamed");
  });

  it("shows the selected team as a team object, and sets or clears it", async () => {
    const { user, server } = await signedInClient((r) => {
      if (r.method === "PATCH" && r.path === "/users/me") return jsonResponse(userJson(null));
    }, team());
    expect(user.selectedTeam).toBeInstanceOf(Team);
    expect(user.selectedTeam?.id).toBe(TEAM_ID);
    await user.setSelectedTeam(null);
    expect(server.sent.at(-1)).toMatchObject({ line: "PATCH /users/me", body: { selected_team_id: null } });
  });

  it("leaves a team through its own membership", async () => {
    const { user, server } = await signedInClient((r) => {
      if (r.method === "DELETE") return jsonResponse({ success: true });
    });
    await user.leaveTeam({ id: TEAM_ID });
    expect(server.lines().at(-1)).toBe(`DELETE /team-memberships/${TEAM_ID}/me`);
  });

  it("reads and updates its own profile in a team", async () => {
    const { user, server } = await signedInClient((r) => {
      const profile = { team_id: TEAM_ID, user_id: USER_ID, display_name: "Ada L.", profile_image_url: null };
      if (r.path === `/team-member-profiles/${TEAM_ID}/me`) return jsonResponse({ ...profile, ...r.body });
    });
    const profile = await user.getTeamProfile({ id: TEAM_ID });
    expect(profile).toMatchObject({ displayName: "Ada L.", profileImageUrl: null });
    await profile.update({ displayName: "Countess" });
    expect(server.sent.at(-1)).toMatchObject({ line: `PATCH /team-member-profiles/${TEAM_ID}/me`, body: { display_name: "Countess" } });
  });

  it("lists its pending invitations, and accepts one by its id", async () => {
    const { user, server } = await signedInClient((r) => {
      if (r.path === "/team-invitations") {
        return list([
          { id: "i1", team_id: TEAM_ID, team_display_name: "Crew", recipient_email: "ada@example.com", expires_at_millis: 1e12 },
        ]);
      }
      if (r.method === "POST" && r.path === "/team-invitations/i1/accept") return jsonResponse({});
    });
    const invitations = await user.listTeamInvitations();
    expect(invitations).toEqual([
      {
        id: "i1",
        teamId: TEAM_ID,
        teamDisplayName: "Crew",
        recipientEmail: "ada@example.com",
        expiresAt: new Date(1e12),
        accept: expect.any(Function),
      },
    ]);
    expect(server.lines().at(-1)).toBe("GET /team-invitations?user_id=me");
    await invitations[0]!.accept();
    expect(server.sent.at(-1)).toMatchObject({ line: "POST /team-invitations/i1/accept?user_id=me" });
  });
});

describe("a team's members and invitations", () => {
  it("lists members with their team profile, invites with the given link, and lists and revokes invitations", async () => {
    let invitations = [
      { id: "i1", team_id: TEAM_ID, team_display_name: "Crew", recipient_email: "bo@example.com", expires_at_millis: 1e12 },
    ];
    const { user, server } = await signedInClient((r) => {
      if (r.path === "/teams") return list([team()]);
      if (r.path === "/team-member-profiles") {
        return list([{ team_id: TEAM_ID, user_id: USER_ID, display_name: "Ada", profile_image_url: null }]);
      }
      if (r.path === "/team-invitations/send-code") return jsonResponse({ success: true, id: "i2" });
      if (r.method === "GET" && r.path === "/team-invitations") return list(invitations);
      if (r.method === "DELETE" && r.path === "/team-invitations/i1") {
        invitations = [];
        return jsonResponse({ success: true });
      }
    });
    const [crew] = await user.listTeams();
    expect(await crew!.listUsers()).toEqual([{ id: USER_ID, teamProfile: { displayName: "Ada", profileImageUrl: null } }]);
    expect(server.lines().at(-1)).toBe(`GET /team-member-profiles?team_id=${TEAM_ID}`);

    await crew!.inviteUser({ email: "cy@example.com", callbackUrl: "https://app.test/handler/team-invitation" });
    expect(server.sent.at(-1)?.body).toEqual({
      team_id: TEAM_ID,
      email: "cy@example.com",
      callback_url: "https://app.test/handler/team-invitation",
    });
    // Outside a browser there is no page to derive the link from.
    await expect(crew!.inviteUser({ email: "cy@example.com" })).rejects.toThrow(/callbackUrl/);

    const [pending] = await crew!.listInvitations();
    expect(pending).toMatchObject({ id: "i1", recipientEmail: "bo@example.com", expiresAt: new Date(1e12) });
    await pending!.revoke();
    expect(server.lines().at(-1)).toBe(`DELETE /team-invitations/i1?team_id=${TEAM_ID}`);
    expect(await crew!.listInvitations()).toEqual([]);
  });
});

describe("permissions of the signed-in user", () => {
  it("lists recursively by default, and checks one permission from the same cached list", async () => {
    const { user, server } = await signedInClient((r) => {
      if (r.path === "/team-permissions") return list([{ id: "$read_members", team_id: TEAM_ID, user_id: USER_ID }]);
      if (r.path === "/project-permissions") return list([{ id: "billing", user_id: USER_ID }]);
    });
    expect(await user.listPermissions({ id: TEAM_ID })).toEqual([{ id: "$read_members" }]);
    expect(await user.hasPermission({ id: TEAM_ID }, "$read_members")).toBe(true);
    expect(await user.getPermission({ id: TEAM_ID }, "$delete_team")).toBeNull();
    expect(server.lines().filter((l) => l.startsWith("GET /team-permissions"))).toEqual([
      `GET /team-permissions?team_id=${TEAM_ID}&user_id=me&recursive=true`,
    ]);

    await user.listPermissions({ id: TEAM_ID }, { recursive: false });
    expect(server.lines().at(-1)).toBe(`GET /team-permissions?team_id=${TEAM_ID}&user_id=me&recursive=false`);

    expect(await user.hasPermission("billing")).toBe(true);
    expect(await user.listPermissions()).toEqual([{ id: "billing" }]);
    expect(server.lines().at(-1)).toBe("GET /project-permissions?user_id=me&recursive=true");
  });
});

describe("invitation codes", () => {
  it("accepts a code (normalized), and answers a stale one with its error as a Result", async () => {
    const { app, server } = await signedInClient((r) => {
      if (r.path === "/team-invitations/accept" && r.body.code === CODE) return jsonResponse({});
      if (r.path === "/team-invitations/accept") return knownErrorResponse("VERIFICATION_CODE_NOT_FOUND", 404);
      if (r.path === "/team-invitations/accept/check-code") return knownErrorResponse("VERIFICATION_CODE_EXPIRED", 400);
      if (r.path === "/team-invitations/accept/details") return jsonResponse({ team_id: TEAM_ID, team_display_name: "Crew" });
    });
    expect(await app.acceptTeamInvitation(` ${CODE.toUpperCase()} `)).toEqual({ status: "ok", data: undefined });
    expect(server.sent.at(-1)?.body).toEqual({ code: CODE });
    const unknown = await app.acceptTeamInvitation("b".repeat(45));
    expect(unknown.status === "error" && unknown.error).toBeInstanceOf(KnownErrors.VerificationCodeNotFound);
    const expired = await app.verifyTeamInvitationCode(CODE);
    expect(expired.status === "error" && expired.error).toBeInstanceOf(KnownErrors.VerificationCodeExpired);
    expect(await app.getTeamInvitationDetails(CODE)).toEqual({ status: "ok", data: { teamId: TEAM_ID, teamDisplayName: "Crew" } });
  });
});

describe("server app", () => {
  function serverApp(route: Route) {
    const server = scripted(route);
    const app = new StackServerApp({ baseUrl: "http://api.test", projectId: "p", secretServerKey: "ssk", fetch: server.fetch });
    return { app, server };
  }

  it("creates, reads and lists server teams with their server fields", async () => {
    const { app, server } = serverApp((r) => {
      if (r.method === "POST" && r.path === "/teams") return jsonResponse(serverTeam(), 201);
      // Selecting the new team for its creator (the answer, the updated user, is not read).
      if (r.method === "PATCH" && r.path === `/users/${USER_ID}`) return jsonResponse({});
      if (r.path === "/teams") return list([serverTeam()]);
      if (r.path === `/teams/${TEAM_ID}`) return jsonResponse(serverTeam());
      if (r.path === `/teams/${OTHER_TEAM_ID}`) return knownErrorResponse("TEAM_NOT_FOUND", 404, "no", { team_id: OTHER_TEAM_ID });
    });
    const created = await app.createTeam({ displayName: "Crew", creatorUserId: USER_ID, serverMetadata: { internal: 1 } });
    expect(server.lines().slice(-2)).toEqual(["POST /teams", `PATCH /users/${USER_ID}`]);
    expect(server.sent.at(-2)?.body).toEqual({ display_name: "Crew", creator_user_id: USER_ID, server_metadata: { internal: 1 } });
    expect(server.sent.at(-1)?.body).toEqual({ selected_team_id: TEAM_ID });
    expect(created).toBeInstanceOf(ServerTeam);
    expect(created).toMatchObject({ createdAt: new Date(1_700_000_000_000), serverMetadata: { internal: 1 } });
    expect((await app.listTeams()).map((t) => t.id)).toEqual([TEAM_ID]);
    expect(server.lines().at(-1)).toBe("GET /teams");
    expect((await app.getTeam(TEAM_ID))?.serverMetadata).toEqual({ internal: 1 });
    expect(await app.getTeam(OTHER_TEAM_ID)).toBeNull();
  });

  it("adds and removes members, and grants and revokes permissions by user id", async () => {
    const { app, server } = serverApp((r) => {
      if (r.path === `/teams/${TEAM_ID}`) return jsonResponse(serverTeam());
      if (r.path === `/users/${USER_ID}`) {
        return jsonResponse({
          ...userJson(),
          country_code: null,
          last_active_at_millis: 1_700_000_000_000,
          primary_email_auth_enabled: true,
          restricted_by_admin_private_details: null,
          risk_scores: { sign_up: { bot: 0, free_trial_abuse: 0 } },
          server_metadata: null,
        });
      }
      if (r.method === "POST") return jsonResponse({}, 201);
      if (r.method === "DELETE") return jsonResponse({ success: true });
    });
    const crew = (await app.getTeam(TEAM_ID))!;
    await crew.addUser(USER_ID);
    await crew.removeUser(USER_ID);
    expect(server.lines().slice(-2)).toEqual([
      `POST /team-memberships/${TEAM_ID}/${USER_ID}`,
      `DELETE /team-memberships/${TEAM_ID}/${USER_ID}`,
    ]);

    const user = (await app.getUser(USER_ID))!;
    await user.grantPermission(crew, "editor");
    await user.grantPermission("billing");
    await user.revokePermission(crew, "editor");
    await user.revokePermission("billing");
    expect(server.lines().slice(-4)).toEqual([
      `POST /team-permissions/${TEAM_ID}/${USER_ID}/editor`,
      `POST /project-permissions/${USER_ID}/billing`,
      `DELETE /team-permissions/${TEAM_ID}/${USER_ID}/editor`,
      `DELETE /project-permissions/${USER_ID}/billing`,
    ]);
  });
});

describe("admin app: permission definitions", () => {
  it("maps definitions both ways, and lists again after a write", async () => {
    let definitions = [{ id: "$read_members", description: "Read", contained_permission_ids: [] as string[] }];
    const server = scripted((r) => {
      if (r.method === "GET" && r.path === "/team-permission-definitions") return list(definitions);
      if (r.method === "POST" && r.path === "/team-permission-definitions") {
        definitions = [...definitions, r.body];
        return jsonResponse(r.body, 201);
      }
      if (r.method === "PATCH") return jsonResponse({ id: "editor", contained_permission_ids: [] });
      if (r.method === "DELETE") return jsonResponse({ success: true });
      if (r.path === "/project-permission-definitions") return list([{ id: "billing", contained_permission_ids: [] }]);
    });
    const app = new StackAdminApp({ baseUrl: "http://api.test", projectId: "p", superSecretAdminKey: "sak", fetch: server.fetch });
    expect(await app.listTeamPermissionDefinitions()).toEqual([{ id: "$read_members", description: "Read", containedPermissionIds: [] }]);
    const created = await app.createTeamPermissionDefinition({ id: "editor", containedPermissionIds: ["$read_members"] });
    expect(server.sent.at(-1)?.body).toEqual({ id: "editor", contained_permission_ids: ["$read_members"] });
    expect(created).toEqual({ id: "editor", containedPermissionIds: ["$read_members"] });
    expect((await app.listTeamPermissionDefinitions()).map((d) => d.id)).toEqual(["$read_members", "editor"]);

    await app.updateTeamPermissionDefinition("editor", { description: "Edits", containedPermissionIds: [] });
    expect(server.sent.at(-1)).toMatchObject({
      line: "PATCH /team-permission-definitions/editor",
      body: { description: "Edits", contained_permission_ids: [] },
    });
    await app.deleteTeamPermissionDefinition("editor");
    expect(server.lines().at(-1)).toBe("DELETE /team-permission-definitions/editor");
    expect(await app.listProjectPermissionDefinitions()).toEqual([{ id: "billing", containedPermissionIds: [] }]);
    expect(server.sent.at(-1)?.headers["x-stack-access-type"]).toBe("admin");
  });
});
