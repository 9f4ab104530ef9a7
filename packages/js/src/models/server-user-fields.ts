/**
 * What a server (or admin) app reads of a user beyond a client's view, shared by
 * `ServerUser` and the signed-in user of a server app (`CurrentServerUser`), and
 * how the client's view is cut back out of it.
 */
import type { ClientUserJson, Json, ServerTeamJson, ServerUserJson, TeamJson } from "./json.ts";
import type { ServerTeam } from "./team.ts";

/**
 * What a server reads of a user and of a team beyond a client's view. Types
 * only (the SDK carries no schemas at run time): the checks below fail to
 * compile when the wire shapes gain a server-only field not listed here.
 */
const SERVER_ONLY_USER_KEYS = [
  "country_code",
  "last_active_at_millis",
  "primary_email_auth_enabled",
  "restricted_by_admin_private_details",
  "risk_scores",
  "server_metadata",
] as const satisfies readonly Exclude<keyof ServerUserJson, keyof ClientUserJson>[];
const SERVER_ONLY_TEAM_KEYS = ["created_at_millis", "server_metadata"] as const satisfies readonly Exclude<
  keyof ServerTeamJson,
  keyof TeamJson
>[];
type Unlisted<Server, Client, Listed extends readonly PropertyKey[]> = Exclude<Exclude<keyof Server, keyof Client>, Listed[number]>;
const everyServerOnlyKeyListed: [
  Unlisted<ServerUserJson, ClientUserJson, typeof SERVER_ONLY_USER_KEYS>,
  Unlisted<ServerTeamJson, TeamJson, typeof SERVER_ONLY_TEAM_KEYS>,
] extends [never, never]
  ? true
  : never = true;
void everyServerOnlyKeyListed;

function without<T extends object>(json: T, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(json).filter(([key]) => !keys.includes(key)));
}

/** The client's view of a user a server read: the fields `GET /users/me` answers a client, no more. */
export function clientViewOf(json: ServerUserJson): ClientUserJson {
  const team = json.selected_team;
  return {
    ...without(json, SERVER_ONLY_USER_KEYS),
    selected_team: team && without(team, SERVER_ONLY_TEAM_KEYS),
  } as ClientUserJson;
}

/** What a server (or admin) app reads of a user beyond the client's view. */
export interface ServerOnlyUserFields {
  readonly selectedTeam: ServerTeam | null;
  readonly lastActiveAt: Date;
  readonly serverMetadata: Json;
  readonly primaryEmailAuthEnabled: boolean;
  readonly restrictedByAdminPrivateDetails: string | null;
  readonly countryCode: string | null;
  readonly riskScores: { readonly signUp: { readonly bot: number; readonly freeTrialAbuse: number } };
}

/** Shared by `ServerUser` and the signed-in user of a server app (`CurrentServerUser`). */
export function serverOnlyUserFields(json: ServerUserJson): Omit<ServerOnlyUserFields, "selectedTeam"> {
  return {
    lastActiveAt: new Date(json.last_active_at_millis),
    serverMetadata: json.server_metadata,
    primaryEmailAuthEnabled: json.primary_email_auth_enabled,
    restrictedByAdminPrivateDetails: json.restricted_by_admin_private_details,
    countryCode: json.country_code,
    riskScores: { signUp: { bot: json.risk_scores.sign_up.bot, freeTrialAbuse: json.risk_scores.sign_up.free_trial_abuse } },
  };
}
