/**
 * One metadata document as JSON in a monospace textarea. Metadata may be any
 * JSON value (`null` is "none"), so the text must be exactly one JSON value:
 * anything else, empty text included, is refused with the parser's words and
 * where, and Save waits for valid JSON.
 */
import type { Json } from "@latchkey/js";
import { parseTree, printParseErrorCode, type ParseError } from "jsonc-parser";
import { useState } from "react";
import { useAction } from "../lib/use-action.ts";
import { Field } from "./field.tsx";
import { ActionStatus } from "./states.tsx";
import "./json-editor.css";

function format(value: Json | undefined): string {
  return JSON.stringify(value ?? null, null, 2);
}

function parseJson(text: string): { value: Json } | { error: string } {
  try {
    return { value: JSON.parse(text) as Json };
  } catch (caught) {
    return { error: `Invalid JSON: ${whereInvalid(text) ?? (caught as Error).message}` };
  }
}

/** The browser's JSON.parse often names no position; a strict JSON scanner says what was expected and where. */
function whereInvalid(text: string): string | null {
  const errors: ParseError[] = [];
  parseTree(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return null;
  const before = text.slice(0, first.offset).split("\n");
  const what = printParseErrorCode(first.error)
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase();
  return `${what[0]!.toUpperCase()}${what.slice(1)} at line ${before.length}, column ${before.at(-1)!.length + 1}.`;
}

export function JsonEditor({
  label,
  hint,
  value,
  onSave,
}: {
  label: string;
  hint: string;
  value: Json | undefined;
  onSave: (value: Json) => Promise<void>;
}) {
  const fromProps = format(value);
  // What was just saved, until the value the page holds moves on from what it was when saving: the page may
  // still show the old value for a moment, and an edit back to that old value must count as a change.
  const [justSaved, setJustSaved] = useState<{ text: string; over: string } | null>(null);
  if (justSaved !== null && fromProps !== justSaved.over) setJustSaved(null);
  const incoming = justSaved?.text ?? fromProps;
  const [base, setBase] = useState(incoming);
  const [text, setText] = useState(incoming);
  if (incoming !== base) {
    // The value changed elsewhere (a refresh): an untouched field follows it; edits in progress stay.
    setBase(incoming);
    if (text === base) setText(incoming);
  }
  const parsed = parseJson(text);
  const changed = text !== incoming;
  const save = useAction(async () => {
    if ("error" in parsed) return;
    await onSave(parsed.value);
    setJustSaved({ text: format(parsed.value), over: fromProps });
    setText(format(parsed.value));
    return `${label} saved.`;
  });
  return (
    <form
      className="json-editor"
      onSubmit={(event) => {
        event.preventDefault();
        void save.run();
      }}
    >
      <Field label={label} hint={hint} error={"error" in parsed ? parsed.error : null}>
        {(props) => (
          <textarea
            {...props}
            className="input mono json-editor-text"
            rows={Math.min(12, Math.max(4, text.split("\n").length + 1))}
            spellCheck={false}
            value={text}
            onChange={(e) => (setText(e.target.value), save.reset())}
          />
        )}
      </Field>
      <div className="row-actions">
        <button type="submit" className="button button-small" disabled={"error" in parsed || !changed || save.pending}>
          {save.pending ? "Saving…" : `Save ${label.toLowerCase()}`}
        </button>
        {changed ? (
          <button type="button" className="button button-secondary button-small" onClick={() => setText(incoming)}>
            Discard changes
          </button>
        ) : null}
      </div>
      <ActionStatus error={save.error} done={save.done} />
    </form>
  );
}
