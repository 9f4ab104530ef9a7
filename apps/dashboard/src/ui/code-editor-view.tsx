/** CodeMirror 6 in React: the document follows `value`, edits go to `onChange`, colours follow the dashboard's light or dark theme. */
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { javascript } from "@codemirror/lang-javascript";
import { bracketMatching, defaultHighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { Compartment, EditorState } from "@codemirror/state";
import { oneDark } from "@codemirror/theme-one-dark";
import { EditorView, drawSelection, highlightActiveLine, keymap, lineNumbers } from "@codemirror/view";
import { useEffect, useRef, useState } from "react";
import "./code-editor.css";

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** The accessible name of the editing area. */
  label: string;
  /** TSX unless told otherwise. */
  language?: "tsx" | "plain";
  readOnly?: boolean;
  minHeight?: string;
}

/** Whether the dashboard is dark now: the chosen theme, else the system's. */
function isDark(): boolean {
  const chosen = document.documentElement.dataset.theme;
  if (chosen) return chosen === "dark";
  return window.matchMedia("(prefers-color-scheme: dark)").matches;
}

function useDarkMode(): boolean {
  const [dark, setDark] = useState(isDark);
  useEffect(() => {
    const update = () => setDark(isDark());
    const media = window.matchMedia("(prefers-color-scheme: dark)");
    media.addEventListener("change", update);
    const observer = new MutationObserver(update);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ["data-theme"] });
    return () => {
      media.removeEventListener("change", update);
      observer.disconnect();
    };
  }, []);
  return dark;
}

const lightTheme = syntaxHighlighting(defaultHighlightStyle, { fallback: true });

export default function CodeEditorView({
  value,
  onChange,
  label,
  language = "tsx",
  readOnly = false,
  minHeight = "20rem",
}: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const themeSlot = useRef(new Compartment());
  const readOnlySlot = useRef(new Compartment());
  const dark = useDarkMode();

  useEffect(() => {
    const editor = new EditorView({
      parent: host.current!,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          highlightActiveLine(),
          keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
          language === "tsx" ? javascript({ jsx: true, typescript: true }) : [],
          themeSlot.current.of(isDark() ? oneDark : lightTheme),
          readOnlySlot.current.of(EditorState.readOnly.of(readOnly)),
          // Reachable by Tab even read-only: its scrolling region then has keyboard access.
          EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0" }),
          EditorView.theme({ "&": { minHeight }, ".cm-scroller": { minHeight } }),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) onChangeRef.current(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => editor.destroy();
    // The editor is made once; later props arrive through the effects below.
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (editor && editor.state.doc.toString() !== value) {
      editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
    }
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: themeSlot.current.reconfigure(dark ? oneDark : lightTheme) });
  }, [dark]);

  useEffect(() => {
    view.current?.dispatch({ effects: readOnlySlot.current.reconfigure(EditorState.readOnly.of(readOnly)) });
  }, [readOnly]);

  return <div ref={host} className="code-editor" />;
}
