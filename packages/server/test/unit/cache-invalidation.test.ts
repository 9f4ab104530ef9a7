/**
 * What each cache event drops from the caches, through their owner indexes
 * (cache/caches.ts): everything the event's owner owns, in every cache that
 * holds it, and nothing of anyone else.
 */
import { describe, expect, it } from "vitest";
import { CacheBus } from "../../src/cache/bus.ts";
import { Caches, ENDED_SESSION } from "../../src/cache/caches.ts";
import type { PermissionGraph } from "../../src/domain/permissions/graph.ts";
import type { TeamRow } from "../../src/db/schema/index.ts";
import type { ProjectRow } from "../../src/domain/projects/project-row.ts";
import type { UserRecord } from "../../src/domain/users/record.ts";
import type { UserTeamApiKeyRow } from "../../src/capabilities/user-team-api-keys/schema.ts";

/** Two projects, each with a team and a member of it who selected it; one session each; a key of the user and one of the team. */
function filled() {
  const bus = new CacheBus();
  const caches = new Caches(bus);
  for (const [p, t, u] of [
    ["p1", "t1", "u1"],
    ["p2", "t2", "u2"],
  ] as const) {
    caches.projects.set(p, { id: p } as ProjectRow);
    caches.projectKeys.set(`${p}:secret:digest`, { projectId: p, expiresAt: null });
    caches.users.set(u, { id: u, projectId: p, selectedTeamId: t } as UserRecord);
    caches.memberships.set(`${t}:${u}`, { teamId: t });
    caches.sessions.set(`digest-${u}`, { id: `s-${u}`, userId: u, projectId: p, branchId: "main", expiresAt: null });
    caches.permissionGraphs.set(`${p}:main`, {} as PermissionGraph);
    caches.teamGrants.set(`${t}:${u}`, { projectId: p, teamId: t, permissionIds: [] });
    caches.projectGrants.set(u, { projectId: p, permissionIds: [] });
    caches.userTeams.set(u, { projectId: p, teamIds: [t, "shared"] });
    caches.teams.set(t, { id: t, projectId: p } as TeamRow);
    caches.apiKeys.set(`${p}:main:k-${u}`, { id: `k-${u}`, projectId: p, userId: u, teamId: null } as UserTeamApiKeyRow);
    caches.apiKeys.set(`${p}:main:k-${t}`, { id: `k-${t}`, projectId: p, userId: null, teamId: t } as UserTeamApiKeyRow);
  }
  const held = () => ({
    projects: [...["p1", "p2"].filter((k) => caches.projects.get(k))],
    projectKeys: ["p1", "p2"].filter((p) => caches.projectKeys.get(`${p}:secret:digest`)),
    users: ["u1", "u2"].filter((k) => caches.users.get(k)),
    memberships: ["t1:u1", "t2:u2"].filter((k) => caches.memberships.get(k)),
    sessions: ["digest-u1", "digest-u2"].filter((k) => caches.sessions.get(k)),
    permissionGraphs: ["p1:main", "p2:main"].filter((k) => caches.permissionGraphs.get(k)),
    teamGrants: ["t1:u1", "t2:u2"].filter((k) => caches.teamGrants.get(k)),
    projectGrants: ["u1", "u2"].filter((k) => caches.projectGrants.get(k)),
    userTeams: ["u1", "u2"].filter((k) => caches.userTeams.get(k)),
    teams: ["t1", "t2"].filter((k) => caches.teams.get(k)),
    apiKeys: ["p1:main:k-u1", "p1:main:k-t1", "p2:main:k-u2", "p2:main:k-t2"].filter((k) => caches.apiKeys.get(k)),
  });
  return { bus, caches, held };
}

const everything = {
  projects: ["p1", "p2"],
  projectKeys: ["p1", "p2"],
  users: ["u1", "u2"],
  memberships: ["t1:u1", "t2:u2"],
  sessions: ["digest-u1", "digest-u2"],
  permissionGraphs: ["p1:main", "p2:main"],
  teamGrants: ["t1:u1", "t2:u2"],
  projectGrants: ["u1", "u2"],
  userTeams: ["u1", "u2"],
  teams: ["t1", "t2"],
  apiKeys: ["p1:main:k-u1", "p1:main:k-t1", "p2:main:k-u2", "p2:main:k-t2"],
};

describe("cache events drop their owner's entries only", () => {
  it("a team event drops the team, its memberships and grants, its members' team lists and the users who selected it", () => {
    const { bus, held } = filled();
    bus.apply({ t: "team", id: "t1" });
    expect(held()).toEqual({
      ...everything,
      users: ["u2"],
      memberships: ["t2:u2"],
      teamGrants: ["t2:u2"],
      userTeams: ["u2"],
      teams: ["t2"],
      apiKeys: ["p1:main:k-u1", "p2:main:k-u2", "p2:main:k-t2"],
    });
  });

  it("a team every user's team list names drops all of those lists", () => {
    const { bus, held } = filled();
    bus.apply({ t: "team", id: "shared" });
    expect(held()).toEqual({ ...everything, userTeams: [] });
  });

  it("a project event drops everything of the project", () => {
    const { bus, held } = filled();
    bus.apply({ t: "project", id: "p1" });
    expect(held()).toEqual({
      projects: ["p2"],
      projectKeys: ["p2"],
      users: ["u2"],
      memberships: ["t1:u1", "t2:u2"], // memberships name teams and users only; their team's project event drops nothing else
      sessions: ["digest-u2"],
      permissionGraphs: ["p2:main"],
      teamGrants: ["t2:u2"],
      projectGrants: ["u2"],
      userTeams: ["u2"],
      teams: ["t2"],
      apiKeys: ["p2:main:k-u2", "p2:main:k-t2"],
    });
  });

  it("a user event drops the user, their sessions, memberships, grants and team list", () => {
    const { bus, held } = filled();
    bus.apply({ t: "user", id: "u1" });
    expect(held()).toEqual({
      ...everything,
      users: ["u2"],
      memberships: ["t2:u2"],
      sessions: ["digest-u2"],
      projectGrants: ["u2"],
      userTeams: ["u2"],
      apiKeys: ["p1:main:k-t1", "p2:main:k-u2", "p2:main:k-t2"],
    });
  });

  it("an api-key event drops that key, wherever its project and branch key it", () => {
    const { bus, held } = filled();
    bus.apply({ t: "api-key", id: "k-t2" });
    expect(held()).toEqual({ ...everything, apiKeys: ["p1:main:k-u1", "p1:main:k-t1", "p2:main:k-u2"] });
  });

  it("a session event drops that session by its id, wherever its digest keys it", () => {
    const { bus, held } = filled();
    bus.apply({ t: "session", id: "s-u2" });
    expect(held()).toEqual({ ...everything, sessions: ["digest-u1"] });
  });

  it("project-keys and permission-definitions events drop the project's keys and graphs", () => {
    const { bus, held } = filled();
    bus.apply({ t: "project-keys", id: "p2" });
    bus.apply({ t: "permission-definitions", id: "p1" });
    expect(held()).toEqual({ ...everything, projectKeys: ["p1"], permissionGraphs: ["p2:main"] });
  });

  it("a marker drops nothing and leaves loads in flight free to cache", () => {
    const { bus, held } = filled();
    const generation = bus.generation;
    bus.apply({ t: "marker", id: "m" });
    expect(held()).toEqual(everything);
    expect(bus.generation).toBe(generation);
    bus.apply({ t: "all" });
    expect(Object.values(held()).flat()).toEqual([]);
  });
});

describe("the liveness of sessions", () => {
  const live = (projectId: string, userId: string) =>
    ({ ended: false, projectId, branchId: "main", userId, expiresAtMillis: null }) as const;

  function withLiveSessions() {
    const bus = new CacheBus();
    const caches = new Caches(bus);
    caches.liveSessions.set("s1", live("p1", "u1"));
    caches.liveSessions.set("s2", live("p2", "u2"));
    const state = (id: string) => {
      const entry = caches.liveSessions.get(id);
      return entry === undefined ? "unknown" : entry.ended ? "ended" : "live";
    };
    return { bus, caches, state };
  }

  it("a session event marks a session known here ended, and leaves the others unknown", () => {
    const { bus, caches, state } = withLiveSessions();
    bus.apply({ t: "session", id: "s1" });
    bus.apply({ t: "session", id: "never-seen" });
    expect([state("s1"), state("s2"), state("never-seen")]).toEqual(["ended", "live", "unknown"]);
    expect(caches.liveSessions.get("s1")).toBe(ENDED_SESSION);
  });

  it("user and project events forget their live sessions; all forgets everything", () => {
    const { bus, state } = withLiveSessions();
    bus.apply({ t: "user", id: "u1" });
    expect([state("s1"), state("s2")]).toEqual(["unknown", "live"]);
    bus.apply({ t: "project", id: "p2" });
    expect(state("s2")).toBe("unknown");
    const again = withLiveSessions();
    again.bus.apply({ t: "session", id: "s1" });
    again.bus.apply({ t: "all" });
    expect([again.state("s1"), again.state("s2")]).toEqual(["unknown", "unknown"]);
  });

  it("loadFinal caches absence even across an invalidation, a value only without one, and shares concurrent loads", async () => {
    const { bus, caches } = withLiveSessions();
    let loads = 0;
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const loader = async () => {
      loads++;
      await gate;
      return null;
    };
    const first = caches.loadFinal(caches.liveSessions, "gone", loader, ENDED_SESSION);
    const second = caches.loadFinal(caches.liveSessions, "gone", loader, ENDED_SESSION);
    bus.apply({ t: "user", id: "someone" });
    release();
    expect(await first).toBe(ENDED_SESSION);
    expect(await second).toBe(ENDED_SESSION);
    expect(loads).toBe(1);
    expect(caches.liveSessions.get("gone")).toBe(ENDED_SESSION);

    const raced = caches.loadFinal(
      caches.liveSessions,
      "s3",
      async () => {
        bus.apply({ t: "session", id: "s1" });
        return live("p1", "u3");
      },
      ENDED_SESSION,
    );
    expect(await raced).toEqual(live("p1", "u3"));
    expect(caches.liveSessions.get("s3")).toBeUndefined();
    expect(await caches.loadFinal(caches.liveSessions, "s3", async () => live("p1", "u3"), ENDED_SESSION)).toEqual(live("p1", "u3"));
    expect(caches.liveSessions.get("s3")).toEqual(live("p1", "u3"));
  });
});
