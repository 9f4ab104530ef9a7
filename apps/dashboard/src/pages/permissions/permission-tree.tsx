/**
 * Permission definitions as a nested list: each with what it contains,
 * expandable down every chain. A definition met again on its own chain is
 * shown without its contents (the server refuses cycles; this keeps an
 * unexpected one from looping forever).
 */
import type { AdminPermissionDefinition } from "@latchkey/js";
import type { ReactNode } from "react";

export function isSystemPermission(id: string): boolean {
  return id.startsWith("$");
}

export function PermissionTree({
  definitions,
  actions,
}: {
  definitions: AdminPermissionDefinition[];
  /** The buttons of a top-level definition. */
  actions: (definition: AdminPermissionDefinition) => ReactNode;
}) {
  const byId = new Map(definitions.map((d) => [d.id, d]));
  return (
    <ul className="permission-tree" aria-label="Permission definitions">
      {definitions.map((definition) => (
        <li key={definition.id} className="permission-top">
          <PermissionNode definition={definition} byId={byId} chain={[]} actions={actions(definition)} />
        </li>
      ))}
    </ul>
  );
}

function PermissionNode({
  definition,
  byId,
  chain,
  actions,
}: {
  definition: AdminPermissionDefinition;
  byId: Map<string, AdminPermissionDefinition>;
  chain: string[];
  actions?: ReactNode;
}) {
  const contained = chain.includes(definition.id) ? [] : definition.containedPermissionIds;
  const label = (
    <span className="permission-label">
      <span className="mono permission-id">{definition.id}</span>
      {isSystemPermission(definition.id) ? <span className="badge">System</span> : null}
      {definition.description ? <span className="muted small">{definition.description}</span> : null}
      {contained.length > 0 ? <span className="badge badge-count">contains {contained.length}</span> : null}
    </span>
  );
  const row = (
    <div className="permission-row">
      {label}
      {actions ? <span className="row-actions">{actions}</span> : null}
    </div>
  );
  if (contained.length === 0) return <div className="permission-leaf">{row}</div>;
  return (
    <details className="permission-branch">
      <summary aria-label={`${definition.id}, contains ${contained.length}`}>{row}</summary>
      <ul>
        {contained.map((id) => {
          const inner = byId.get(id) ?? { id, containedPermissionIds: [] };
          return (
            <li key={id}>
              <PermissionNode definition={inner} byId={byId} chain={[...chain, definition.id]} />
            </li>
          );
        })}
      </ul>
    </details>
  );
}
