/**
 * A project owner: a user of the `internal` project. They create projects
 * for their teams and administer them with their own session.
 */
import type { AdminProjectJson } from "./json.ts";
import { AdminProject } from "./admin-project.ts";
import { snakeKeys } from "./case.ts";
import type { AdminProjectUpdateOptions } from "./admin-project.ts";
import { CurrentUser } from "./current-user.ts";
import type { UserContext } from "./user-fields.ts";
import type { StackAdminApp } from "../apps/admin-app.ts";
import type { Session } from "../session/session.ts";

export interface AdminProjectCreateOptions extends Omit<AdminProjectUpdateOptions, "isProductionMode"> {
  displayName: string;
  /** The team that will own the project; default the user's selected team. */
  teamId?: string;
}

/**
 * A project its owner holds: `project.app` administers it with the owner's
 * session. Listing the projects again gives the same `app` for each project
 * (while the owner stays signed in), so what it has read stays cached.
 */
export class AdminOwnedProject extends AdminProject {
  constructor(
    json: AdminProjectJson,
    context: ConstructorParameters<typeof AdminProject>[1],
    readonly app: StackAdminApp,
  ) {
    super(json, context);
  }
}

interface AppSettings {
  baseUrl?: string;
  fetch?: typeof fetch;
  extraRequestHeaders?: Record<string, string>;
}

/**
 * One admin app per project and owner sign-in: the user object is built anew
 * whenever the owner changes, but a re-listed project keeps its app, so the
 * app's cache (and everything read through it) survives the re-list. A new
 * sign-in on the same session (its refresh token changes) starts afresh.
 */
const adminApps = new WeakMap<Session, { refreshToken: string | null; byProject: Map<string, StackAdminApp> }>();

function adminAppsOf(session: Session): Map<string, StackAdminApp> {
  const refreshToken = session.tokens.refreshToken;
  let entry = adminApps.get(session);
  if (entry?.refreshToken !== refreshToken) adminApps.set(session, (entry = { refreshToken, byProject: new Map() }));
  return entry.byProject;
}

export class CurrentInternalUser extends CurrentUser {
  constructor(
    json: ConstructorParameters<typeof CurrentUser>[0],
    context: UserContext,
    private readonly settings: AppSettings,
  ) {
    super(json, context);
  }

  async createProject(options: AdminProjectCreateOptions): Promise<AdminOwnedProject> {
    const { teamId, ...rest } = options;
    const ownerTeamId = teamId ?? this.selectedTeamId;
    if (!ownerTeamId) throw new Error("createProject needs a teamId: this user has no selected team.");
    const json = await this.context.api.call("POST /internal/projects", {
      accessType: "client",
      session: this.session,
      body: { ...snakeKeys(rest), owner_team_id: ownerTeamId },
    });
    return this.owned(json);
  }

  async listOwnedProjects(): Promise<AdminOwnedProject[]> {
    const body = await this.context.api.call("GET /internal/projects", { accessType: "client", session: this.session });
    const apps = adminAppsOf(this.session);
    // Projects gone from the list (deleted, transferred away) let their apps go.
    for (const id of apps.keys()) if (!body.items.some((json) => json.id === id)) apps.delete(id);
    return Promise.all(body.items.map((json) => this.owned(json)));
  }

  async transferProject(projectId: string, newTeamId: string): Promise<void> {
    await this.context.api.call("POST /internal/projects/transfer", {
      accessType: "client",
      session: this.session,
      body: { project_id: projectId, new_team_id: newTeamId },
    });
  }

  private async owned(json: AdminProjectJson): Promise<AdminOwnedProject> {
    // Loaded when first needed: the admin app builds on this module's app classes.
    const { StackAdminApp } = await import("../apps/admin-app.ts");
    const apps = adminAppsOf(this.session);
    let app = apps.get(json.id);
    if (!app) {
      app = new StackAdminApp({ ...this.settings, projectId: json.id, projectOwnerSession: this.session, tokenStore: null });
      apps.set(json.id, app);
    }
    return new AdminOwnedProject(json, app.adminProjectContext(), app);
  }
}
