/** Labelled counts, largest first, each with a bar sized against the largest: readable as a plain list. */
import { formatCount } from "./format.ts";

export interface BarListItem {
  key: string;
  label: string;
  count: number;
}

export function BarList({ items, label }: { items: BarListItem[]; label: string }) {
  const largest = Math.max(1, ...items.map((item) => item.count));
  return (
    <ol className="bar-list" aria-label={label}>
      {items.map((item) => (
        <li key={item.key}>
          <span className="bar-list-label">{item.label}</span>
          <span className="bar-list-count">{formatCount(item.count)}</span>
          <span className="bar-list-bar" aria-hidden="true">
            <span style={{ width: `${(item.count / largest) * 100}%` }} />
          </span>
        </li>
      ))}
    </ol>
  );
}
