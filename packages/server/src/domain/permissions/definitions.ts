/**
 * The project's permission definitions, read and written by its admins.
 *
 * Ids are one namespace across both scopes. A definition contains only
 * permissions of its own scope (a team one may contain the system `$…`
 * ones), and containment stays acyclic. Every write locks the project row
 * (FOR NO KEY UPDATE: inserts elsewhere that only check the project's key
 * are not held up), so writes to one project's definitions (and to its
 * config, which names definitions in its default lists) take turns: two
 * concurrent changes cannot make a cycle between them.
 *
 * The system permissions are listed and read like definitions but cannot be
 * changed: to a write they are not found (they are no definition of this
 * project). A definition of the other scope is WRONG_PERMISSION_SCOPE.
 */
import { KnownErrors, type PermissionDefinitionJson } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import { isUniqueViolation } from "../../db/errors.ts";
import { InvalidInput } from "../../lib/invalid-input.ts";
import { permissionDefinitions, projects } from "../../db/schema/index.ts";
import { record, type EventTx } from "../../events/transaction.ts";
import type { Services } from "../../services.ts";
import { loadProjects } from "../projects/projects.ts";
import { definitionJson, type PermissionDefinition, type PermissionGraph, type PermissionScope } from "./graph.ts";
import { permissionGraph, readPermissionGraph } from "./load.ts";
import { rewriteReferences } from "./references.ts";
import { inTenancy, type Tenancy } from "../../db/tenancy.ts";
import type { ProjectRow } from "../projects/project-row.ts";

export async function listDefinitions(services: Services, scope: Tenancy, kind: PermissionScope): Promise<PermissionDefinitionJson[]> {
  // System ones first is also by id: "$" sorts before every character a custom id may hold.
  return (await permissionGraph(services, scope)).list(kind).map(definitionJson);
}

export async function getDefinition(
  services: Services,
  scope: Tenancy,
  kind: PermissionScope,
  id: string,
): Promise<PermissionDefinitionJson> {
  return definitionJson(requireDefinition(await permissionGraph(services, scope), kind, id, { systemIsFound: true }));
}

function requireDefinition(
  graph: PermissionGraph,
  kind: PermissionScope,
  id: string,
  options: { systemIsFound: boolean },
): PermissionDefinition {
  const definition = graph.get(id);
  // Project scope has no system permissions: there a `$…` id names nothing.
  if (!definition || (definition.isSystem && (!options.systemIsFound || kind !== "team"))) throw new KnownErrors.PermissionNotFound(id);
  if (definition.scope !== kind) throw new KnownErrors.WrongPermissionScope(id, kind, definition.scope);
  return definition;
}

export interface DefinitionInput {
  id: string;
  description?: string | undefined;
  contained_permission_ids?: string[] | undefined;
}

export function createDefinition(
  services: Services,
  scope: Tenancy,
  kind: PermissionScope,
  input: DefinitionInput,
): Promise<PermissionDefinitionJson> {
  return inDefinitionWrite(services, scope, async (tx, graph) => {
    if (graph.get(input.id)) throw new KnownErrors.PermissionIdAlreadyExists(input.id);
    const contained = sortedUnique(input.contained_permission_ids ?? []);
    checkContained(graph, kind, input.id, input.id, contained);
    try {
      await tx.insert(permissionDefinitions).values({
        ...scope,
        id: input.id,
        scope: kind,
        description: input.description ?? null,
        containedPermissionIds: contained,
      });
    } catch (error) {
      // The primary key is the last word on ids taken at the same moment.
      if (isUniqueViolation(error)) throw new KnownErrors.PermissionIdAlreadyExists(input.id);
      throw error;
    }
    return {
      contained_permission_ids: contained,
      ...(input.description === undefined ? {} : { description: input.description }),
      id: input.id,
    };
  });
}

/** What is omitted is kept; a new id is carried to grants, containing definitions and the default lists. */
export function updateDefinition(
  services: Services,
  scope: Tenancy,
  kind: PermissionScope,
  id: string,
  patch: Partial<DefinitionInput>,
): Promise<PermissionDefinitionJson> {
  return inDefinitionWrite(services, scope, async (tx, graph, project) => {
    const current = requireDefinition(graph, kind, id, { systemIsFound: false });
    const newId = patch.id ?? id;
    if (newId !== id && graph.get(newId)) throw new KnownErrors.PermissionIdAlreadyExists(newId);
    const contained = sortedUnique(patch.contained_permission_ids ?? current.containedPermissionIds);
    const description = patch.description ?? current.description;
    checkContained(graph, kind, id, newId, contained);
    try {
      await tx
        .update(permissionDefinitions)
        .set({ id: newId, description, containedPermissionIds: contained })
        .where(definitionKey(scope, id));
    } catch (error) {
      if (isUniqueViolation(error)) throw new KnownErrors.PermissionIdAlreadyExists(newId);
      throw error;
    }
    if (newId !== id) await rewriteReferences(tx, services, scope, project, kind, id, newId);
    return { contained_permission_ids: contained, ...(description === null ? {} : { description }), id: newId };
  });
}

/** Removes the definition, its grants, and its id from other definitions and from the default lists. */
export function deleteDefinition(services: Services, scope: Tenancy, kind: PermissionScope, id: string): Promise<void> {
  return inDefinitionWrite(services, scope, async (tx, graph, project) => {
    requireDefinition(graph, kind, id, { systemIsFound: false });
    await tx.delete(permissionDefinitions).where(definitionKey(scope, id));
    await rewriteReferences(tx, services, scope, project, kind, id, null);
  });
}

/**
 * One transaction holding the project row, with the definitions as they are
 * now; the definitions' event is recorded with the write.
 */
function inDefinitionWrite<T>(
  services: Services,
  scope: Tenancy,
  write: (tx: EventTx, graph: PermissionGraph, project: ProjectRow) => Promise<T>,
): Promise<T> {
  return services.events.transaction(services.db, async (tx) => {
    const [locked] = await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, scope.projectId)).for("no key update");
    if (!locked) throw new KnownErrors.CurrentProjectNotFound(scope.projectId);
    const [project] = await loadProjects(tx, services.config.serverSecret, eq(projects.id, scope.projectId));
    if (!project) throw new KnownErrors.CurrentProjectNotFound(scope.projectId);
    const result = await write(tx, await readPermissionGraph(tx, scope), project);
    await record(tx, {
      type: "permission_definitions.updated",
      projectId: scope.projectId,
      branchId: scope.branchId,
      data: { id: scope.projectId },
    });
    return result;
  });
}

/**
 * Contained ids must be defined in the same scope, and containing them must
 * not close a loop back to the definition (`id`, about to be called `newId`).
 */
function checkContained(graph: PermissionGraph, kind: PermissionScope, id: string, newId: string, contained: readonly string[]): void {
  const self = contained.find((other) => other === id || other === newId);
  if (self !== undefined) throw cycleError([newId, newId]);
  for (const other of contained) {
    if (graph.get(other)?.scope !== kind) throw new KnownErrors.ContainedPermissionNotFound(other);
  }
  const cycle = graph.cycleThrough(id, contained);
  if (cycle) throw cycleError(cycle.map((step) => (step === id ? newId : step)));
}

function cycleError(path: readonly string[]) {
  return new InvalidInput([`body.contained_permission_ids would make a cycle: ${path.join(" → ")}`]);
}

function sortedUnique(ids: readonly string[]): string[] {
  return [...new Set(ids)].sort();
}

function definitionKey(scope: Tenancy, id: string) {
  return and(inTenancy(permissionDefinitions, scope), eq(permissionDefinitions.id, id));
}
