/**
 * The guides as tabs: arrow keys, Home and End move between them (one tab
 * in the page's tab order at a time), and the chosen one is in the URL.
 */
import { useRef, type KeyboardEvent } from "react";
import { CodeBlock } from "./code-block.tsx";
import type { Guide } from "./snippets.ts";

export function GuideTabs({ guides, selected, onSelect }: { guides: Guide[]; selected: Guide["id"]; onSelect: (id: Guide["id"]) => void }) {
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const index = Math.max(
    0,
    guides.findIndex((g) => g.id === selected),
  );
  const current = guides[index]!;
  const move = (e: KeyboardEvent) => {
    const next =
      e.key === "ArrowRight"
        ? (index + 1) % guides.length
        : e.key === "ArrowLeft"
          ? (index - 1 + guides.length) % guides.length
          : e.key === "Home"
            ? 0
            : e.key === "End"
              ? guides.length - 1
              : null;
    if (next === null) return;
    e.preventDefault();
    onSelect(guides[next]!.id);
    tabs.current[next]?.focus();
  };
  return (
    <div className="guide-tabs">
      <div role="tablist" aria-label="Your app's stack" className="tab-list" onKeyDown={move}>
        {guides.map((g, i) => (
          <button
            key={g.id}
            ref={(el) => {
              tabs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`guide-tab-${g.id}`}
            aria-controls="guide-panel"
            aria-selected={i === index}
            tabIndex={i === index ? 0 : -1}
            className="tab"
            onClick={() => onSelect(g.id)}
          >
            {g.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="guide-panel" aria-labelledby={`guide-tab-${current.id}`} className="tab-panel">
        <p className="muted">{current.intro}</p>
        {current.files.map((file) => (
          <CodeBlock key={file.name} file={file} />
        ))}
      </div>
    </div>
  );
}
