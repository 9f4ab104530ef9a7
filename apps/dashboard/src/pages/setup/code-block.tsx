/** One file of a guide: its name, its text, and a Copy button that says when it worked. */
import { CopyButton } from "../../ui/copy-field.tsx";
import type { SnippetFile } from "./snippets.ts";

export function CodeBlock({ file }: { file: SnippetFile }) {
  return (
    <figure className="code-block">
      <figcaption>
        <span className="mono small">{file.name}</span>
        <CopyButton text={file.code} ariaLabel={`Copy ${file.name}`} small />
      </figcaption>
      <pre tabIndex={0}>
        <code>{file.code}</code>
      </pre>
    </figure>
  );
}
