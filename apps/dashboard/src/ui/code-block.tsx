/** A named block of text to read and copy: its name, the text, and a Copy button that says when it worked. */
import { CopyButton } from "./copy-field.tsx";
import "./code-block.css";

export function CodeBlock({ name, code, copyLabel, regionLabel }: { name: string; code: string; copyLabel: string; regionLabel?: string }) {
  return (
    <figure className="code-block">
      <figcaption>
        <span className="mono small">{name}</span>
        <CopyButton text={code} ariaLabel={copyLabel} small />
      </figcaption>
      <pre tabIndex={0} {...(regionLabel ? { role: "region", "aria-label": regionLabel } : {})}>
        <code>{code}</code>
      </pre>
    </figure>
  );
}
