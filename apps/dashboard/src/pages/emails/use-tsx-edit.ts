/**
 * The edit state every TSX editor keeps (templates, themes, drafts): the fields as edited, whether they
 * differ from what was last saved, and the save, which writes them, says "<What> saved." and tells the
 * page (which reloads its list). One hook, so the three editors save and report alike.
 */
import { useCallback, useState } from "react";
import { useAction, type Action } from "../../lib/use-action.ts";

export interface TsxEdit<T> {
  edited: T;
  set: <K extends keyof T>(key: K, value: T[K]) => void;
  changed: boolean;
  save: Action<[]>;
}

/** What the editors' shared frame (tsx-editor-form.tsx) uses of any of them: the source, and the save. */
export interface SourceEdit {
  edited: { source: string };
  set(key: "source", value: string): void;
  changed: boolean;
  save: Action<[]>;
}

export function useTsxEdit<T extends object>(
  saved: T,
  write: (edited: T) => Promise<unknown>,
  what: string,
  onSaved: () => void,
): TsxEdit<T> {
  const [edited, setEdited] = useState(saved);
  // What was last saved here: the page's copy may reload later than the answer to the save.
  const [base, setBase] = useState(saved);
  const changed = (Object.keys(base) as (keyof T)[]).some((key) => !Object.is(edited[key], base[key]));
  const save = useAction(async () => {
    await write(edited);
    setBase(edited);
    onSaved();
    return `${what} saved.`;
  });
  const set = useCallback(<K extends keyof T>(key: K, value: T[K]) => setEdited((current) => ({ ...current, [key]: value })), []);
  return { edited, set, changed, save };
}
