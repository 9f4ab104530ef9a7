/**
 * Reading and writing the stored overrides. A write locks the row it
 * changes (creating it first if need be) and merges into what is stored
 * there, not into a cached copy, so two writers of different keys both win;
 * the project's caches drop it when the write commits.
 */
import {
  DEFAULT_BRANCH_ID,
  mergeConfigOverrides,
  renderConfig,
  type ConfigLevel,
  type ConfigOverride,
  type ConfigSourceJson,
  type RenderedConfig,
} from "@latchkey/shared";
import { eq } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import { branchConfigOverrides, projectConfigOverrides } from "../../db/schema/index.ts";
import { inTenancy, type Tenancy } from "../../db/tenancy.ts";
import { sealSecrets } from "./secrets.ts";

export interface StoredOverrides {
  project: ConfigOverride;
  branch: ConfigOverride;
  environment: ConfigOverride;
  source: ConfigSourceJson;
}

const UNLINKED: ConfigSourceJson = { type: "unlinked" };

export function renderOverrides(stored: Pick<StoredOverrides, ConfigLevel>): RenderedConfig {
  return renderConfig(mergeConfigOverrides([stored.project, stored.branch, stored.environment]));
}

/** The stored overrides; `lock` (in a transaction) first makes sure the rows exist and locks the one `lock` names. */
export async function readOverrides(db: DbOrTx, t: Tenancy, lock?: ConfigLevel): Promise<StoredOverrides> {
  if (lock === "project") {
    await db.insert(projectConfigOverrides).values({ projectId: t.projectId }).onConflictDoNothing();
  } else if (lock) {
    await db.insert(branchConfigOverrides).values({ projectId: t.projectId, branchId: t.branchId }).onConflictDoNothing();
  }
  const projectQuery = db.select().from(projectConfigOverrides).where(eq(projectConfigOverrides.projectId, t.projectId));
  const branchQuery = db.select().from(branchConfigOverrides).where(inTenancy(branchConfigOverrides, t));
  const [project] = lock === "project" ? await projectQuery.for("update") : await projectQuery;
  const [branch] = lock && lock !== "project" ? await branchQuery.for("update") : await branchQuery;
  return {
    project: project?.override ?? {},
    branch: branch?.branchOverride ?? {},
    environment: branch?.environmentOverride ?? {},
    source: branch?.source ?? UNLINKED,
  };
}

/**
 * Stores `level`'s new override, its secrets sealed (a mask sent back keeps the
 * secret `before` holds). Call inside the transaction that locked the row.
 */
export async function saveOverride(
  db: DbOrTx,
  serverSecret: string,
  t: Tenancy,
  level: ConfigLevel,
  override: ConfigOverride,
  before: RenderedConfig,
  source?: ConfigSourceJson,
): Promise<ConfigOverride> {
  const sealed = sealSecrets(serverSecret, override, before);
  if (level === "project") {
    await db
      .insert(projectConfigOverrides)
      .values({ projectId: t.projectId, override: sealed })
      .onConflictDoUpdate({ target: projectConfigOverrides.projectId, set: { override: sealed } });
    return sealed;
  }
  const column = level === "branch" ? { branchOverride: sealed } : { environmentOverride: sealed };
  const set = source ? { ...column, source } : column;
  await db
    .insert(branchConfigOverrides)
    .values({ projectId: t.projectId, branchId: t.branchId, ...set })
    .onConflictDoUpdate({ target: [branchConfigOverrides.projectId, branchConfigOverrides.branchId], set });
  return sealed;
}

export async function setConfigSource(db: DbOrTx, t: Tenancy, source: ConfigSourceJson): Promise<void> {
  await db
    .insert(branchConfigOverrides)
    .values({ projectId: t.projectId, branchId: t.branchId, source })
    .onConflictDoUpdate({ target: [branchConfigOverrides.projectId, branchConfigOverrides.branchId], set: { source } });
}

export function mainBranch(projectId: string): Tenancy {
  return { projectId, branchId: DEFAULT_BRANCH_ID };
}
