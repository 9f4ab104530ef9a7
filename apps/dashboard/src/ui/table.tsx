/** A data table with its column headings; `actions` adds a last column for each row's buttons, named for screen readers only. */
import type { ReactNode } from "react";

export function Table({
  columns,
  actions = false,
  label,
  className,
  children,
}: {
  columns: string[];
  actions?: boolean;
  label?: string;
  className?: string;
  /** The rows. */
  children: ReactNode;
}) {
  return (
    <table className={className ? `table ${className}` : "table"} aria-label={label}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
          {actions ? (
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          ) : null}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
