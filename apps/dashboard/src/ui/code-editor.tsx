/**
 * A code editor for any page (TSX by default). CodeMirror is large, so it is
 * loaded when a page first shows an editor: only the pages that use it carry it.
 */
import { lazy, Suspense } from "react";
import type { CodeEditorProps } from "./code-editor-view.tsx";

const CodeEditorView = lazy(() => import("./code-editor-view.tsx"));

export type { CodeEditorProps };

export function CodeEditor(props: CodeEditorProps) {
  return (
    <Suspense fallback={<div className="code-editor code-editor-loading" style={{ minHeight: props.minHeight }} aria-busy="true" />}>
      <CodeEditorView {...props} />
    </Suspense>
  );
}
