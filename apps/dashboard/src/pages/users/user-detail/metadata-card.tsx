/** The user's three metadata objects, each edited as JSON. */
import type { ServerUser } from "@latchkey/js";
import { Card } from "../../../ui/page.tsx";
import { JsonEditor } from "./json-editor.tsx";

export function MetadataCard({ user, onChanged }: { user: ServerUser; onChanged: () => void }) {
  const save = (field: "clientMetadata" | "clientReadOnlyMetadata" | "serverMetadata") => async (value: unknown) => {
    await user.update({ [field]: value });
    onChanged();
  };
  return (
    <Card title="Metadata" description="JSON objects your app stores with the user.">
      <div className="metadata-editors">
        <JsonEditor
          key={`client-${user.id}`}
          label="Client metadata"
          hint="The user's own app can read and change it."
          value={user.clientMetadata}
          onSave={save("clientMetadata")}
        />
        <JsonEditor
          key={`read-only-${user.id}`}
          label="Client read-only metadata"
          hint="The user's app can read it; only servers change it."
          value={user.clientReadOnlyMetadata}
          onSave={save("clientReadOnlyMetadata")}
        />
        <JsonEditor
          key={`server-${user.id}`}
          label="Server metadata"
          hint="Only your servers (and this dashboard) can read it."
          value={user.serverMetadata}
          onSave={save("serverMetadata")}
        />
      </div>
    </Card>
  );
}
