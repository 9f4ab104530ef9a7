/** Creating, updating, transferring and deleting projects. */
import { INTERNAL_PROJECT_ID, KnownErrors } from "@latchkey/shared";
import { and, asc, eq, inArray } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/connect.ts";
import { record, type Events } from "../../events/transaction.ts";
import { projects, teamMembers } from "../../db/schema/index.ts";
import { insertDefaultPermissionDefinitions } from "../permissions/defaults.ts";
import { defaultProjectConfig, type ProjectConfig } from "./config.ts";
import { missingClientSecret, sealProviderSecrets } from "./oauth-secrets.ts";
import { productionModeErrors, type ProductionModeError } from "./production-mode.ts";
import type { ProjectRow, ProjectStore } from "./projects.ts";
import { applyConfigPatch, type ConfigPatch } from "./schemas.ts";

export interface ProjectFields {
  display_name?: string | undefined;
  description?: string | null | undefined;
  is_production_mode?: boolean | undefined;
  logo_url?: string | null | undefined;
  logo_full_url?: string | null | undefined;
  logo_dark_mode_url?: string | null | undefined;
  logo_full_dark_mode_url?: string | null | undefined;
  config?: ConfigPatch | undefined;
}

export class ProductionModeRefused extends Error {
  constructor(readonly errors: ProductionModeError[]) {
    super(
      `Production mode cannot be turned on until these are fixed:\n${errors.map((e) => `  - ${e.message} (fix it at ${e.relative_fix_url})`).join("\n")}`,
    );
  }
}

function columns(fields: ProjectFields) {
  const out: Partial<typeof projects.$inferInsert> = {};
  if (fields.display_name !== undefined) out.displayName = fields.display_name;
  if (fields.description !== undefined) out.description = fields.description ?? "";
  if (fields.is_production_mode !== undefined) out.isProductionMode = fields.is_production_mode;
  if (fields.logo_url !== undefined) out.logoUrl = fields.logo_url;
  if (fields.logo_full_url !== undefined) out.logoFullUrl = fields.logo_full_url;
  if (fields.logo_dark_mode_url !== undefined) out.logoDarkModeUrl = fields.logo_dark_mode_url;
  if (fields.logo_full_dark_mode_url !== undefined) out.logoFullDarkModeUrl = fields.logo_full_dark_mode_url;
  return out;
}

/** The patched config, with the standard providers' client secrets sealed (see oauth-secrets.ts). */
function patchedConfig(serverSecret: string, config: ProjectConfig, patch: ConfigPatch | undefined): ProjectConfig {
  const next = applyConfigPatch(config, patch);
  if (!patch?.oauth_providers) return next;
  const missing = missingClientSecret(
    patch.oauth_providers.filter((p) => !config.oauth_providers.some((q) => q.id === p.id && q.type === "standard" && q.client_secret)),
  );
  if (missing)
    throw new KnownErrors.SchemaError(`body.config.oauth_providers: ${missing.id} needs client_id and client_secret when type is standard`);
  return { ...next, oauth_providers: sealProviderSecrets(serverSecret, config.oauth_providers, patch.oauth_providers) };
}

export async function createProject(
  db: Db,
  serverSecret: string,
  input: ProjectFields & { display_name: string; owner_team_id: string },
): Promise<ProjectRow> {
  const config = patchedConfig(serverSecret, defaultProjectConfig(), input.config);
  const id = crypto.randomUUID();
  if (input.is_production_mode) {
    const errors = productionModeErrors(id, config);
    if (errors.length > 0) throw new ProductionModeRefused(errors);
  }
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(projects)
      .values({ ...columns(input), id, displayName: input.display_name, ownerTeamId: input.owner_team_id, config })
      .returning();
    await insertDefaultPermissionDefinitions(tx, id);
    return row!;
  });
}

/**
 * Merges the patch into the row as it is in the database, locked, not into a
 * cached copy: two admins changing different settings at once must both win.
 * The caches drop the project when the write commits.
 */
export function updateProject(
  db: Db,
  events: Events,
  serverSecret: string,
  store: ProjectStore,
  projectId: string,
  fields: ProjectFields,
): Promise<ProjectRow> {
  return events.transaction(db, async (tx) => {
    const [project] = await tx.select().from(projects).where(eq(projects.id, projectId)).for("update");
    if (!project) throw new KnownErrors.CurrentProjectNotFound(projectId);
    const config = patchedConfig(serverSecret, project.config, fields.config);
    const productionMode = fields.is_production_mode ?? project.isProductionMode;
    if (productionMode) {
      const errors = productionModeErrors(project.id, config);
      if (errors.length > 0) throw new ProductionModeRefused(errors);
    }
    const [row] = await tx
      .update(projects)
      .set({ ...columns(fields), config })
      .where(eq(projects.id, project.id))
      .returning();
    await store.changed(tx, row!.id);
    return row!;
  });
}

/** Projects owned by teams the internal-project user belongs to, oldest first. */
export async function listOwnedProjects(db: DbOrTx, internalUserId: string): Promise<ProjectRow[]> {
  const teamIds = db
    .select({ id: teamMembers.teamId })
    .from(teamMembers)
    .where(and(eq(teamMembers.projectId, INTERNAL_PROJECT_ID), eq(teamMembers.userId, internalUserId)));
  return db.select().from(projects).where(inArray(projects.ownerTeamId, teamIds)).orderBy(asc(projects.createdAt));
}

export async function setProjectOwner(db: Db, events: Events, projectId: string, teamId: string): Promise<void> {
  await events.transaction(db, async (tx) => {
    await tx.update(projects).set({ ownerTeamId: teamId }).where(eq(projects.id, projectId));
    await record(tx, { type: "project.updated", projectId, branchId: null, data: { id: projectId } });
  });
}

export async function deleteProject(db: Db, events: Events, projectId: string): Promise<void> {
  await events.transaction(db, async (tx) => {
    await tx.delete(projects).where(eq(projects.id, projectId));
    await record(tx, { type: "project.deleted", projectId, branchId: null, data: { id: projectId } });
  });
}
