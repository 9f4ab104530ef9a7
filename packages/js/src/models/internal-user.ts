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

export interface AdminProjectCreateOptions extends Omit<AdminProjectUpdateOptions, "isProductionMode"> {
  displayName: string;
  /** The team that will own the project; default the user's selected team. */
  teamId?: string;
}

/** A project its owner holds: `project.app` administers it with the owner's session. */
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
    const app = new StackAdminApp({
      ...this.settings,
      projectId: json.id,
      projectOwnerSession: this.session,
      tokenStore: null,
    });
    return new AdminOwnedProject(json, app.adminProjectContext(), app);
  }
}
