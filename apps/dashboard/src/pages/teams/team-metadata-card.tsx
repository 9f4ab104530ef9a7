/** A team's three metadata documents as JSON: what clients may write, what they may only read, what only servers see. */
import type { ServerTeam } from "@latchkey/js";
import { useState, type FormEvent } from "react";
import { useAction } from "../../lib/use-action.ts";
import { Field } from "../../ui/field.tsx";
import { Card } from "../../ui/page.tsx";
import { ActionStatus } from "../../ui/states.tsx";

type Json = ServerTeam["clientMetadata"];

const KINDS = [
  { key: "clientMetadata", label: "Client metadata", hint: "Members' apps may read and change it." },
  { key: "clientReadOnlyMetadata", label: "Client read-only metadata", hint: "Members' apps may read it; only servers change it." },
  { key: "serverMetadata", label: "Server metadata", hint: "Only servers read and change it." },
] as const;
type Kind = (typeof KINDS)[number]["key"];

function show(value: Json): string {
  return value === null || value === undefined ? "" : JSON.stringify(value, null, 2);
}

/** The parsed document (empty text is no metadata), or the parser's complaint. */
function parse(text: string): { value: Json } | { error: string } {
  if (!text.trim()) return { value: null };
  try {
    return { value: JSON.parse(text) as Json };
  } catch (error) {
    return { error: `Not valid JSON: ${(error as Error).message}` };
  }
}

export function TeamMetadataCard({ team, onSaved }: { team: ServerTeam; onSaved: () => void }) {
  const [texts, setTexts] = useState<Record<Kind, string>>({
    clientMetadata: show(team.clientMetadata),
    clientReadOnlyMetadata: show(team.clientReadOnlyMetadata),
    serverMetadata: show(team.serverMetadata),
  });
  const parsed = Object.fromEntries(KINDS.map(({ key }) => [key, parse(texts[key])])) as Record<Kind, ReturnType<typeof parse>>;
  const invalid = KINDS.some(({ key }) => "error" in parsed[key]);
  const save = useAction(async () => {
    const value = (key: Kind) => (parsed[key] as { value: Json }).value;
    await team.update({
      clientMetadata: value("clientMetadata"),
      clientReadOnlyMetadata: value("clientReadOnlyMetadata"),
      serverMetadata: value("serverMetadata"),
    });
    onSaved();
    return "Metadata saved.";
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!invalid) void save.run();
  };
  return (
    <Card title="Metadata" description="JSON your apps keep with the team.">
      <form className="form form-wide" onSubmit={submit}>
        <div className="metadata-grid">
          {KINDS.map(({ key, label, hint }) => {
            const result = parsed[key];
            return (
              <Field key={key} label={label} hint={hint} error={"error" in result ? result.error : null}>
                {(props) => (
                  <textarea
                    {...props}
                    className="input mono"
                    rows={6}
                    spellCheck={false}
                    placeholder="{}"
                    value={texts[key]}
                    onChange={(e) => setTexts((t) => ({ ...t, [key]: e.target.value }))}
                  />
                )}
              </Field>
            );
          })}
        </div>
        <ActionStatus error={save.error} done={save.done} />
        <div>
          <button type="submit" className="button" disabled={save.pending || invalid}>
            {save.pending ? "Saving…" : "Save metadata"}
          </button>
        </div>
      </form>
    </Card>
  );
}
