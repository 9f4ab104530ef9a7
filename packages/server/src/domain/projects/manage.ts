/** Creating, updating, transferring and deleting projects. */
import { DEFAULT_BRANCH_ID, INTERNAL_PROJECT_ID, KnownErrors, applyConfigOverride, type ConfigOverride } from "@latchkey/shared";
import { and, eq, inArray } from "drizzle-orm";
import type { Db, DbOrTx } from "../../db/connect.ts";
import { record, type Events } from "../../events/transaction.ts";
import { projects, teamMembers } from "../../db/schema/index.ts";
import { insertDefaultPermissionDefinitions } from "../permissions/defaults.ts";
import { NEW_PROJECT_ENVIRONMENT, legacyPatchOverride, projectConfigOf } from "../config/legacy.ts";
import { mainBranch, readOverrides, renderOverrides, saveOverride } from "../config/store.ts";
import type { ProjectConfig } from "./config.ts";
import { missingClientSecret, sealProviderSecrets } from "./oauth-secrets.ts";
import { productionModeProblems, type ProductionModeError } from "./production-mode.ts";
import { loadProjects, type ProjectStore } from "./projects.ts";
import { inTenancy } from "../../db/tenancy.ts";
import type { ConfigPatch } from "./schemas.ts";
import type { ProjectRow } from "./project-row.ts";

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

/**
 * The environment override a config patch writes over `current`: the older
 * fields' keys (config/legacy.ts), standard providers' client secrets kept
 * or sealed as oauth-secrets.ts says.
 */
function patchedOverride(serverSecret: string, current: ProjectConfig, patch: ConfigPatch | undefined): ConfigOverride {
  if (!patch) return {};
  if (!patch.oauth_providers) return legacyPatchOverride(patch);
  const missing = missingClientSecret(
    patch.oauth_providers.filter((p) => !current.oauth_providers.some((q) => q.id === p.id && q.type === "standard" && q.client_secret)),
  );
  if (missing)
    throw new KnownErrors.SchemaError(`body.config.oauth_providers: ${missing.id} needs client_id and client_secret when type is standard`);
  return legacyPatchOverride({
    ...patch,
    oauth_providers: sealProviderSecrets(serverSecret, current.oauth_providers, patch.oauth_providers),
  });
}

/** Throws ProductionModeRefused when a production project's config would break a production rule. */
export function checkProductionMode(projectId: string, productionMode: boolean | undefined, config: ProjectConfig): void {
  if (!productionMode) return;
  const { errors } = productionModeProblems(projectId, config);
  if (errors.length > 0) throw new ProductionModeRefused(errors);
}

export async function createProject(
  db: Db,
  serverSecret: string,
  input: ProjectFields & { display_name: string; owner_team_id: string },
): Promise<ProjectRow> {
  const id = crypto.randomUUID();
  const t = mainBranch(id);
  const empty = renderOverrides({ project: {}, branch: {}, environment: {} });
  const environment = applyConfigOverride(
    NEW_PROJECT_ENVIRONMENT,
    patchedOverride(serverSecret, projectConfigOf(empty, serverSecret), input.config),
  );
  checkProductionMode(
    id,
    input.is_production_mode,
    projectConfigOf(renderOverrides({ project: {}, branch: {}, environment }), serverSecret),
  );
  return db.transaction(async (tx) => {
    await tx.insert(projects).values({ ...columns(input), id, displayName: input.display_name, ownerTeamId: input.owner_team_id });
    await saveOverride(tx, serverSecret, t, "environment", environment, empty);
    await insertDefaultPermissionDefinitions(tx, id);
    return (await loadProjects(tx, serverSecret, eq(projects.id, id)))[0]!;
  });
}

/**
 * Merges the patch into the project and its environment override as they
 * are in the database, locked, not into a cached copy: two admins changing
 * different settings at once must both win. The caches drop the project
 * when the write commits.
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
    const [project] = await tx
      .select({ id: projects.id, isProductionMode: projects.isProductionMode })
      .from(projects)
      .where(eq(projects.id, projectId))
      .for("update");
    if (!project) throw new KnownErrors.CurrentProjectNotFound(projectId);
    const t = mainBranch(projectId);
    const stored = await readOverrides(tx, t, "environment");
    const before = renderOverrides(stored);
    const environment = applyConfigOverride(
      stored.environment,
      patchedOverride(serverSecret, projectConfigOf(before, serverSecret), fields.config),
    );
    const after = projectConfigOf(renderOverrides({ ...stored, environment }), serverSecret);
    checkProductionMode(projectId, fields.is_production_mode ?? project.isProductionMode, after);
    const set = columns(fields);
    if (Object.keys(set).length > 0) await tx.update(projects).set(set).where(eq(projects.id, projectId));
    if (fields.config) await saveOverride(tx, serverSecret, t, "environment", environment, before);
    await store.changed(tx, projectId);
    return (await loadProjects(tx, serverSecret, eq(projects.id, projectId)))[0]!;
  });
}

/** Projects owned by teams the internal-project user belongs to, oldest first. */
export async function listOwnedProjects(db: DbOrTx, serverSecret: string, internalUserId: string): Promise<ProjectRow[]> {
  const teamIds = db
    .select({ id: teamMembers.teamId })
    .from(teamMembers)
    .where(
      and(inTenancy(teamMembers, { projectId: INTERNAL_PROJECT_ID, branchId: DEFAULT_BRANCH_ID }), eq(teamMembers.userId, internalUserId)),
    );
  const rows = await loadProjects(db, serverSecret, inArray(projects.ownerTeamId, teamIds));
  return rows.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
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
