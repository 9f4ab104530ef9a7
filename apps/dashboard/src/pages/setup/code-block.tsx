/** One file of a guide: its name, its text, and a Copy button that says when it worked. */
import { useState } from "react";
import type { SnippetFile } from "./snippets.ts";

export function CodeBlock({ file }: { file: SnippetFile }) {
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(file.code);
      setCopied("yes");
    } catch {
      // Clipboard access needs a secure context or permission; the text stays selectable.
      setCopied("failed");
    }
  };
  return (
    <figure className="code-block">
      <figcaption>
        <span className="mono small">{file.name}</span>
        <button type="button" className="button button-secondary button-small" aria-label={`Copy ${file.name}`} onClick={() => void copy()}>
          {copied === "yes" ? "Copied" : "Copy"}
        </button>
      </figcaption>
      <pre tabIndex={0}>
        <code>{file.code}</code>
      </pre>
      {copied === "failed" ? <p className="field-hint">Select the text and copy it with your keyboard.</p> : null}
    </figure>
  );
}
