/**
 * Tabs over one panel: arrow keys, Home and End move between them (only the
 * chosen tab is in the page's tab order), and the panel shows the chosen one.
 * The caller keeps the choice (often in the URL), so a link can open any tab.
 */
import { useId, useRef, type KeyboardEvent, type ReactNode } from "react";

export function Tabs<Id extends string>({
  label,
  tabs,
  selected,
  onSelect,
  children,
}: {
  /** What the tabs choose between, for screen readers. */
  label: string;
  tabs: readonly { id: Id; label: string }[];
  selected: Id;
  onSelect: (id: Id) => void;
  /** The chosen tab's panel content. */
  children: ReactNode;
}) {
  const base = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const index = Math.max(
    0,
    tabs.findIndex((t) => t.id === selected),
  );
  const tabId = (i: number) => `${base}-tab-${i}`;
  const panelId = `${base}-panel`;
  const move = (e: KeyboardEvent) => {
    const last = tabs.length - 1;
    const keys: Record<string, number> = {
      ArrowRight: index === last ? 0 : index + 1,
      ArrowLeft: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    };
    const next = keys[e.key];
    if (next === undefined) return;
    e.preventDefault();
    onSelect(tabs[next]!.id);
    buttons.current[next]?.focus();
  };
  return (
    <>
      <div role="tablist" aria-label={label} className="tab-list" onKeyDown={move}>
        {tabs.map((t, i) => (
          <button
            key={t.id}
            ref={(el) => {
              buttons.current[i] = el;
            }}
            type="button"
            role="tab"
            id={tabId(i)}
            // One panel shows the selected tab's content: only that tab controls it.
            aria-controls={i === index ? panelId : undefined}
            aria-selected={i === index}
            tabIndex={i === index ? 0 : -1}
            className="tab"
            onClick={() => onSelect(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={panelId} aria-labelledby={tabId(index)} className="tab-panel">
        {children}
      </div>
    </>
  );
}
