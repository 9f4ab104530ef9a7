/** A page's frame: its title (also the document's), an optional description and actions, then its sections. */
import { useEffect, useRef, type ReactNode } from "react";

export function Page({
  title,
  description,
  actions,
  children,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  useEffect(() => {
    document.title = `${title} · Latchkey`;
  }, [title]);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    // After a move from the sidebar or the top bar, focus lands on the new page's title, so a screen reader announces it
    // and Tab continues in the page; focus the owner put in the page (a search box) is left where it is.
    const active = document.activeElement;
    if (!active || active === document.body || active.closest(".sidebar, .topbar")) heading.current?.focus();
  }, []);
  return (
    <div className="page">
      <header className="page-header">
        <div>
          <h1 ref={heading} tabIndex={-1}>
            {title}
          </h1>
          {description ? <p className="muted">{description}</p> : null}
        </div>
        {actions ? <div className="page-actions">{actions}</div> : null}
      </header>
      {children}
    </div>
  );
}

export function Card({
  title,
  description,
  actions,
  children,
}: {
  title?: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="card" aria-label={title}>
      {title || actions ? (
        <header className="card-header">
          <div>
            {title ? <h2>{title}</h2> : null}
            {description ? <p className="muted">{description}</p> : null}
          </div>
          {actions ? <div className="card-actions">{actions}</div> : null}
        </header>
      ) : null}
      {children}
    </section>
  );
}
