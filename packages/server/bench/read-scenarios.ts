/**
 * Reads: the pipeline floor, the session's user (GET /users/me), a member's teams and team permissions, and
 * refreshing access tokens, with sessions repeated and with none twice in a second.
 */
import { DISTINCT_SESSIONS, WARMUP, wanted } from "./config.ts";
import { cannon, eachWithHeader, roundRobin, withHeaderPerRequest, type CannonRequest } from "./cannon.ts";
import type { ScenarioRun } from "./scenario-run.ts";
import { sessionPool, teamMembersFixture, TEAMS_PER_MEMBER, type Fixture } from "./setup.ts";

export const USERS_ME = "GET /users/me";
export const REFRESH_COLD = "refresh: each session's first, read from the database";
export const REFRESH_DISTINCT = "refresh: no session twice in a second, sessions cached";

const REFRESH_PATH = "/api/v1/auth/sessions/current/refresh";
const refreshWith = (nextRefreshToken: () => string) =>
  withHeaderPerRequest("POST", REFRESH_PATH, "x-stack-refresh-token", nextRefreshToken);

/** GET /users/me as each pool user in turn. */
export function meRequest(fx: Fixture): CannonRequest[] {
  return eachWithHeader(
    "GET",
    "/api/v1/users/me",
    "x-stack-access-token",
    fx.users.map((u) => u.accessToken),
  );
}

/** Not a target: the same request pipeline with no authentication and no database. */
export async function pipelineFloor(run: ScenarioRun): Promise<void> {
  const { label, base, pid, report } = run;
  if (wanted("floor")) {
    process.stdout.write(`[${label}] GET /api/v1/ (pipeline floor)…\n`);
    const request: CannonRequest = { method: "GET", path: "/api/v1/" };
    await cannon("warm-up", base, { request, pid }, WARMUP);
    report.rows.push(await cannon("GET /api/v1/ (Latchkey pipeline, no auth, no DB)", base, { request, pid }));
  }
}

export async function usersMe(run: ScenarioRun): Promise<void> {
  const { label, base, pid, fx, report } = run;
  if (wanted("me")) {
    process.stdout.write(`[${label}] GET /users/me…\n`);
    const request = meRequest(fx);
    await cannon("warm-up", base, { headers: fx.client, request, pid }, WARMUP);
    report.rows.push(await cannon(USERS_ME, base, { headers: fx.client, request, pid }));
  }
}

export async function teamReads(run: ScenarioRun): Promise<void> {
  const { label, base, pid, fx, report } = run;
  if (wanted("teams") || wanted("team-permissions")) {
    const members = await teamMembersFixture(base, fx);
    if (wanted("teams")) {
      process.stdout.write(`[${label}] GET /teams?user_id=me (${TEAMS_PER_MEMBER} teams each)…\n`);
      const request = eachWithHeader(
        "GET",
        "/api/v1/teams?user_id=me",
        "x-stack-access-token",
        members.map((m) => m.accessToken),
      );
      await cannon("warm-up", base, { headers: fx.client, request, pid }, WARMUP);
      report.rows.push(await cannon(`GET /teams?user_id=me (${TEAMS_PER_MEMBER} teams)`, base, { headers: fx.client, request, pid }));
    }
    if (wanted("team-permissions")) {
      process.stdout.write(`[${label}] GET /team-permissions?team_id&user_id=me&recursive=true…\n`);
      const request: CannonRequest[] = members.map((m) => ({
        method: "GET",
        path: `/api/v1/team-permissions?team_id=${m.teamIds[m.teamIds.length - 1]}&user_id=me&recursive=true`,
        headers: { "x-stack-access-token": m.accessToken },
      }));
      await cannon("warm-up", base, { headers: fx.client, request, pid }, WARMUP);
      report.rows.push(await cannon("GET /team-permissions?team_id&user_id=me&recursive=true", base, { headers: fx.client, request, pid }));
    }
  }
}

export async function refreshes(run: ScenarioRun): Promise<void> {
  const { label, base, pid, fx, report } = run;
  if (wanted("refresh")) {
    process.stdout.write(`[${label}] refresh…\n`);
    const request = eachWithHeader(
      "POST",
      REFRESH_PATH,
      "x-stack-refresh-token",
      fx.users.map((u) => u.refreshToken),
    );
    await cannon("warm-up", base, { headers: fx.client, request, pid }, WARMUP);
    report.rows.push(await cannon("POST /auth/sessions/current/refresh", base, { headers: fx.client, request, pid }));
  }
  if (wanted("refresh-distinct")) {
    // Not targets. The refresh above mostly repeats a session within the same
    // second, where the server hands out the token it has just signed. Here no
    // session comes back within a second: first each session once, read from
    // the database (a session's first refresh in this process), then the same
    // sessions again, now cached, so every request pays for a signature.
    process.stdout.write(`[${label}] creating ${DISTINCT_SESSIONS} sessions, then refresh with a different session each time…\n`);
    const nextToken = roundRobin(await sessionPool(base, fx, DISTINCT_SESSIONS));
    const request = refreshWith(nextToken);
    report.rows.push(await cannon(REFRESH_COLD, base, { headers: fx.client, request, pid, amount: DISTINCT_SESSIONS }));
    report.rows.push(await cannon(REFRESH_DISTINCT, base, { headers: fx.client, request, pid }));
  }
}
