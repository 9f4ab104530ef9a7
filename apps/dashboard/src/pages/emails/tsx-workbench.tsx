/** TSX on the left, the server's rendering of it on the right, its error in words under the editor. */
import { CodeEditor } from "../../ui/code-editor.tsx";
import { EmailPreviewFrame } from "./email-preview-frame.tsx";
import type { Preview } from "./use-email-preview.ts";

export function TsxWorkbench({
  source,
  onChange,
  label,
  preview,
}: {
  source: string;
  onChange: (source: string) => void;
  label: string;
  preview: Preview;
}) {
  return (
    <div className="tsx-workbench">
      <div className="tsx-workbench-editor">
        <CodeEditor value={source} onChange={onChange} label={label} minHeight="28rem" />
        {preview.error ? (
          <p className="notice notice-error tsx-error" role="alert">
            {preview.error}
          </p>
        ) : null}
      </div>
      <div className="tsx-workbench-preview" aria-busy={preview.pending}>
        <div className="tsx-preview-bar muted">
          <span>Preview{preview.subject ? `: ${preview.subject}` : ""}</span>
          <span role="status">{preview.pending ? "Rendering…" : preview.error ? "Showing the last good render" : ""}</span>
        </div>
        {preview.html !== null ? (
          <EmailPreviewFrame html={preview.html} title="E-mail preview" />
        ) : (
          <div className="email-frame email-frame-empty muted">{preview.pending ? "Rendering…" : "Nothing to show yet."}</div>
        )}
      </div>
    </div>
  );
}
