/**
 * Permission definitions as a nested list: each with what it contains,
 * expandable down every chain. A definition met again on its own chain is
 * shown without its contents (the server refuses cycles; this keeps an
 * unexpected one from looping forever).
 */
import type { AdminPermissionDefinition } from "@latchkey/js";
import { useId, useState, type ReactNode } from "react";

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
  const [open, setOpen] = useState(false);
  const listId = useId();
  const contained = chain.includes(definition.id) ? [] : definition.containedPermissionIds;
  const label = (
    <span className="permission-label">
      <span className="mono permission-id">{definition.id}</span>
      {isSystemPermission(definition.id) ? <span className="badge">System</span> : null}
      {definition.description ? <span className="muted small">{definition.description}</span> : null}
      {contained.length > 0 ? <span className="badge badge-count">contains {contained.length}</span> : null}
    </span>
  );
  // The disclosure button holds only the label; the row's own buttons sit beside it, never inside it.
  return (
    <>
      <div className="permission-row">
        {contained.length === 0 ? (
          <span className="permission-leaf">{label}</span>
        ) : (
          <button type="button" className="permission-toggle" aria-expanded={open} aria-controls={listId} onClick={() => setOpen(!open)}>
            <span className="permission-caret" aria-hidden="true">
              {open ? "▾" : "▸"}
            </span>
            {label}
          </button>
        )}
        {actions ? <span className="row-actions">{actions}</span> : null}
      </div>
      {/* Only when open: a permission contained along several paths would otherwise be drawn once per path, all hidden. */}
      {contained.length > 0 && open ? (
        <ul id={listId} aria-label={`Contained in ${definition.id}`}>
          {contained.map((id) => {
            const inner = byId.get(id) ?? { id, containedPermissionIds: [] };
            return (
              <li key={id}>
                <PermissionNode definition={inner} byId={byId} chain={[...chain, definition.id]} />
              </li>
            );
          })}
        </ul>
      ) : null}
    </>
  );
}
