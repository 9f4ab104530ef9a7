/** A user's or team's three metadata documents, each edited and saved on its own as JSON. */
import type { Json } from "@latchkey/js";
import { JsonEditor } from "./json-editor.tsx";
import { Card } from "./page.tsx";

export type MetadataField = "clientMetadata" | "clientReadOnlyMetadata" | "serverMetadata";

const FIELDS: { field: MetadataField; label: string }[] = [
  { field: "clientMetadata", label: "Client metadata" },
  { field: "clientReadOnlyMetadata", label: "Client read-only metadata" },
  { field: "serverMetadata", label: "Server metadata" },
];

export function MetadataCard({
  owner,
  description,
  hints,
  save,
}: {
  /** The user or team: its id keys the editors, so nothing typed for one shows for another. */
  owner: { id: string } & Record<MetadataField, Json | undefined>;
  description: string;
  /** Who may read and change each document. */
  hints: Record<MetadataField, string>;
  save: (field: MetadataField, value: Json) => Promise<void>;
}) {
  return (
    <Card title="Metadata" description={description}>
      <div className="metadata-editors">
        {FIELDS.map(({ field, label }) => (
          <JsonEditor
            key={`${field}-${owner.id}`}
            label={label}
            hint={hints[field]}
            value={owner[field]}
            onSave={(value) => save(field, value)}
          />
        ))}
      </div>
    </Card>
  );
}
