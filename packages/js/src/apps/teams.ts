/**
 * An app's cached reads of teams, members, invitations and permissions (see
 * cache/query.ts), and the team objects built on them. Every write in this
 * area calls `changed()`: each of these reads is read again where shown, and
 * the app's signed-in users too (their selected team may have changed).
 */
import { snakeCaseKeys } from "@latchkey/shared/case";
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import { CachedQuery, type CacheStore } from "../cache/index.ts";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import { booleanText } from "../interface/query-values.ts";
import type { ItemReads } from "../models/item.ts";
import type { ProductReads } from "../models/product.ts";
import type { ServerTeamJson, ServerUserJson, TeamJson } from "../models/json.ts";
import type { ProjectPermission, TeamPermission } from "../models/permission.ts";
import type { ServerUser } from "../models/server-user.ts";
import {
  editableTeamMemberProfile,
  serverTeamUserFromJson,
  teamInvitationFromJson,
  teamUserFromJson,
  userTeamInvitationFromJson,
  type MemberContext,
  type TeamUser,
} from "../models/team-member.ts";
import { ServerTeam, Team, type ServerTeamCreateOptions, type TeamContext } from "../models/team.ts";
import { UserTeams, type TeamQueries } from "../models/user-teams.ts";
import type { Session } from "../session/session.ts";

export interface AppTeamsContext {
  api: ApiClient;
  /** The app's access, asked when used (a subclass app sets its own after the base constructor ran). */
  accessType(): AccessType;
  cache: CacheStore;
  /** Where an invitation link leads: the given URL, else the app's team-invitation page (absolute). */
  invitationCallbackUrl(given: string | undefined): string;
  /** A user object of this app (for members read by a server). */
  serverUser(json: ServerUserJson): ServerUser;
  /** Teams changed: the app's signed-in users are read again. */
  usersChanged(): void;
  /** The app's cached item reads (a team's items). */
  items: ItemReads;
  /** The app's product reads and changes (a team's products). */
  products: ProductReads;
}

type S = Session | null;

export class AppTeams implements TeamQueries {
  readonly api: ApiClient;
  readonly #teams: CachedQuery<[S, string | null], Team[]>;
  readonly #team: CachedQuery<[S, string], Team | null>;
  readonly #users: CachedQuery<[S, string], TeamUser[]>;
  readonly #invitations;
  readonly #userInvitations;
  readonly #profile;
  readonly #teamPermissions: CachedQuery<[S, string, string, boolean], TeamPermission[]>;
  readonly #projectPermissions: CachedQuery<[S, string, boolean], ProjectPermission[]>;
  readonly #all: CachedQuery<readonly never[], unknown>[];

  constructor(private readonly ctx: AppTeamsContext) {
    this.api = ctx.api;
    const { cache } = ctx;
    this.#teams = new CachedQuery(cache, "teams", async (session: S, userIdOrMe: string | null) => {
      const body = await this.api.call("GET /teams", { ...this.caller(session), query: { user_id: userIdOrMe ?? undefined } });
      return body.items.map((json) => this.team(json, session));
    });
    this.#team = new CachedQuery(cache, "team", async (session: S, teamId: string) => {
      try {
        return this.team(await this.api.call("GET /teams/:team_id", { ...this.caller(session), params: { team_id: teamId } }), session);
      } catch (error) {
        if (error instanceof KnownErrors.TeamNotFound || error instanceof KnownErrors.TeamMembershipNotFound) return null;
        throw error;
      }
    });
    this.#users = new CachedQuery(cache, "teamUsers", async (session: S, teamId: string) => {
      const body = await this.api.call("GET /team-member-profiles", { ...this.caller(session), query: { team_id: teamId } });
      return body.items.map((json) =>
        "user" in json ? serverTeamUserFromJson(json, (user) => this.ctx.serverUser(user)) : teamUserFromJson(json),
      );
    });
    this.#invitations = new CachedQuery(cache, "teamInvitations", async (session: S, teamId: string) => {
      const body = await this.api.call("GET /team-invitations", { ...this.caller(session), query: { team_id: teamId } });
      return body.items.map((json) => teamInvitationFromJson(json, this.memberContext(session)));
    });
    this.#userInvitations = new CachedQuery(cache, "userTeamInvitations", async (session: S, userIdOrMe: string) => {
      const body = await this.api.call("GET /team-invitations", { ...this.caller(session), query: { user_id: userIdOrMe } });
      return body.items.map((json) => userTeamInvitationFromJson(json, this.memberContext(session), userIdOrMe));
    });
    this.#profile = new CachedQuery(cache, "teamProfile", async (session: S, teamId: string, userIdOrMe: string) => {
      const json = await this.api.call("GET /team-member-profiles/:team_id/:user_id", {
        ...this.caller(session),
        params: { team_id: teamId, user_id: userIdOrMe },
      });
      return editableTeamMemberProfile(json, this.memberContext(session), userIdOrMe);
    });
    this.#teamPermissions = new CachedQuery(
      cache,
      "teamPermissions",
      async (session: S, userIdOrMe: string, teamId: string, recursive: boolean) => {
        const body = await this.api.call("GET /team-permissions", {
          ...this.caller(session),
          query: { team_id: teamId, user_id: userIdOrMe, recursive: booleanText(recursive) },
        });
        return body.items.map((json) => ({ id: json.id }));
      },
    );
    this.#projectPermissions = new CachedQuery(cache, "projectPermissions", async (session: S, userIdOrMe: string, recursive: boolean) => {
      const body = await this.api.call("GET /project-permissions", {
        ...this.caller(session),
        query: { user_id: userIdOrMe, recursive: booleanText(recursive) },
      });
      return body.items.map((json) => ({ id: json.id }));
    });
    this.#all = [
      this.#teams,
      this.#team,
      this.#users,
      this.#invitations,
      this.#userInvitations,
      this.#profile,
      this.#teamPermissions,
      this.#projectPermissions,
    ] as unknown as CachedQuery<readonly never[], unknown>[];
  }

  get accessType(): AccessType {
    return this.ctx.accessType();
  }

  /** Every team read here is read again where shown, and the app's signed-in users with it. */
  changed(): void {
    for (const query of this.#all) query.invalidateAll();
    this.ctx.usersChanged();
  }

  /** One user's teams and permissions: `me` with a session, or a user's id with server access. */
  forUser(session: S, userIdOrMe: string): UserTeams {
    return new UserTeams(this, session, userIdOrMe);
  }

  // TeamQueries: the entries user objects read.
  teams = (session: S, userIdOrMe: string | null) => this.#teams.entry(session, userIdOrMe);
  teamById = (session: S, teamId: string) => this.#team.entry(session, teamId);
  teamProfile = (session: S, teamId: string, userIdOrMe: string) => this.#profile.entry(session, teamId, userIdOrMe);
  teamPermissions = (session: S, userIdOrMe: string, teamId: string, recursive: boolean) =>
    this.#teamPermissions.entry(session, userIdOrMe, teamId, recursive);
  projectPermissions = (session: S, userIdOrMe: string, recursive: boolean) =>
    this.#projectPermissions.entry(session, userIdOrMe, recursive);
  userInvitations = (session: S, userIdOrMe: string) => this.#userInvitations.entry(session, userIdOrMe);

  /** The team object of a team's JSON: a ServerTeam when this app reads with server access. */
  team(json: TeamJson | ServerTeamJson, session: S): Team {
    return this.accessType === "client" ? new Team(json, this.teamContext(session)) : this.serverTeam(json as ServerTeamJson);
  }

  serverTeam(json: ServerTeamJson): ServerTeam {
    return new ServerTeam(json, this.teamContext(null));
  }

  /** A team made by a server, for whoever `creatorUserId` names (or nobody). */
  /** A new team; its creator, if named, has it selected (like every team created for a user). */
  async createServerTeam(options: ServerTeamCreateOptions): Promise<ServerTeam> {
    const json = await this.api.call("POST /teams", { accessType: this.accessType, body: snakeCaseKeys(options) });
    if (options.creatorUserId !== undefined) {
      await this.api.call("PATCH /users/:user_id", {
        accessType: this.accessType,
        params: { user_id: options.creatorUserId },
        body: { selected_team_id: json.id },
      });
    }
    this.changed();
    return this.serverTeam(json as ServerTeamJson);
  }

  private teamContext(session: S): TeamContext {
    return {
      ...this.memberContext(session),
      users: (teamId) => this.#users.entry(session, teamId),
      invitations: (teamId) => this.#invitations.entry(session, teamId),
      item: (teamId, itemId) => this.ctx.items.entry(session, { type: "team", id: teamId }, itemId),
      payments: (teamId) => this.ctx.products.of(session, { type: "team", id: teamId }),
      invitationCallbackUrl: (given) => this.ctx.invitationCallbackUrl(given),
    };
  }

  private memberContext(session: S): MemberContext {
    return { api: this.api, accessType: this.accessType, session, changed: () => this.changed() };
  }

  private caller(session: S) {
    return { accessType: this.accessType, session };
  }
}
