/**
 * A project's permission definitions as a graph: each permission may contain
 * others, and holding one means holding everything reachable from it. The
 * six system team permissions are in every graph, containing nothing.
 * Writes keep the graph acyclic (`cycleThrough`), so expansion terminates;
 * it is iterative anyway, so a deep chain costs no stack.
 */
import { SYSTEM_TEAM_PERMISSIONS, type PermissionDefinitionJson } from "@latchkey/shared";

export type PermissionScope = "team" | "project";

export interface PermissionDefinition {
  id: string;
  scope: PermissionScope;
  description: string | null;
  /** Sorted. */
  containedPermissionIds: readonly string[];
  isSystem: boolean;
}

const SYSTEM_DEFINITIONS: readonly PermissionDefinition[] = Object.entries(SYSTEM_TEAM_PERMISSIONS).map(([id, description]) => ({
  id,
  scope: "team",
  description,
  containedPermissionIds: [],
  isSystem: true,
}));

export class PermissionGraph {
  private readonly byId = new Map<string, PermissionDefinition>();
  /** Expansions already computed (the graph never changes once built). */
  private readonly closures = new Map<string, readonly string[]>();

  constructor(custom: readonly Omit<PermissionDefinition, "isSystem">[]) {
    for (const definition of SYSTEM_DEFINITIONS) this.byId.set(definition.id, definition);
    for (const definition of custom) {
      this.byId.set(definition.id, {
        ...definition,
        containedPermissionIds: [...definition.containedPermissionIds].sort(),
        isSystem: false,
      });
    }
  }

  get(id: string): PermissionDefinition | undefined {
    return this.byId.get(id);
  }

  /** Definitions of a scope: system ones first, then by id. */
  list(scope: PermissionScope): PermissionDefinition[] {
    return [...this.byId.values()]
      .filter((definition) => definition.scope === scope)
      .sort((a, b) => Number(b.isSystem) - Number(a.isSystem) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /** `id` and every permission it contains, directly or through a chain (ids with no definition are skipped). */
  closure(id: string): readonly string[] {
    const known = this.closures.get(id);
    if (known) return known;
    const seen = new Set<string>();
    const stack = [id];
    while (stack.length > 0) {
      const next = stack.pop()!;
      if (seen.has(next)) continue;
      const definition = this.byId.get(next);
      if (!definition) continue;
      seen.add(next);
      for (const contained of definition.containedPermissionIds) stack.push(contained);
    }
    const result = [...seen].sort();
    this.closures.set(id, result);
    return result;
  }

  /** Everything the granted ids amount to, sorted. */
  expand(granted: readonly string[]): string[] {
    if (granted.length === 1) return [...this.closure(granted[0]!)];
    const all = new Set<string>();
    for (const id of granted) for (const held of this.closure(id)) all.add(held);
    return [...all].sort();
  }

  /** Whether holding `granted` amounts to holding `permissionId`. */
  holds(granted: readonly string[], permissionId: string): boolean {
    for (const id of granted) if (this.closure(id).includes(permissionId)) return true;
    return false;
  }

  /**
   * If `id` were to contain `contained`, the chain that would lead back to
   * `id` (e.g. ["a", "b", "a"]), else null.
   */
  cycleThrough(id: string, contained: readonly string[]): string[] | null {
    // Depth-first from each contained permission, looking for `id`.
    const visited = new Set<string>();
    const path: string[] = [id];
    const search = (from: string): boolean => {
      path.push(from);
      if (from === id) return true;
      if (!visited.has(from)) {
        visited.add(from);
        for (const next of this.byId.get(from)?.containedPermissionIds ?? []) if (search(next)) return true;
      }
      path.pop();
      return false;
    };
    for (const start of contained) if (search(start)) return path;
    return null;
  }
}

export function definitionJson(definition: PermissionDefinition): PermissionDefinitionJson {
  return {
    contained_permission_ids: [...definition.containedPermissionIds],
    ...(definition.description === null ? {} : { description: definition.description }),
    id: definition.id,
  };
}
