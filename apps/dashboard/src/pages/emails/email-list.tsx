/** The left-hand list of themes, templates or drafts; the selected one is in the URL (`?id=`), so a reload or a shared link keeps it. */
import { Link, useSearchParams } from "react-router";

export interface EmailListItem {
  id: string;
  name: string;
  note?: string;
}

export function EmailList({ items, label, selected }: { items: EmailListItem[]; label: string; selected: string | null }) {
  const [params] = useSearchParams();
  const linkTo = (id: string) => {
    const next = new URLSearchParams(params);
    next.set("id", id);
    return `?${next.toString()}`;
  };
  return (
    <nav aria-label={label}>
      <ul className="email-list">
        {items.map((item) => (
          <li key={item.id}>
            <Link to={linkTo(item.id)} aria-current={item.id === selected ? "page" : undefined}>
              {item.name}
              {item.note ? <span className="muted">{item.note}</span> : null}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
