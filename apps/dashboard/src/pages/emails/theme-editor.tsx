/** One theme: its name and TSX, previewed live around a sample template; save. */
import type { StackAdminApp } from "@latchkey/js";
import { useState } from "react";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";
import { Field } from "../../ui/field.tsx";
import { Loaded } from "../../ui/states.tsx";
import { TsxEditorForm } from "./tsx-editor-form.tsx";
import { useEmailPreview } from "./use-email-preview.ts";

const SAMPLE_TEMPLATE = `import { Heading, Text } from "@react-email/components";

export const subject = "A sample message";

export function EmailTemplate({ project }) {
  return (
    <>
      <Heading as="h1">Hello from {project.displayName}</Heading>
      <Text>This sample shows how your theme frames every message.</Text>
    </>
  );
}
`;

export function ThemeEditor({ app, themeId, onSaved }: { app: StackAdminApp; themeId: string; onSaved: () => void }) {
  const theme = useLoad(() => app.getEmailTheme(themeId), [app, themeId]);
  return (
    <Loaded load={theme}>
      {(t) => <ThemeForm app={app} id={t.id} initialName={t.displayName} initialSource={t.tsxSource} onSaved={onSaved} />}
    </Loaded>
  );
}

function ThemeForm({
  app,
  id,
  initialName,
  initialSource,
  onSaved,
}: {
  app: StackAdminApp;
  id: string;
  initialName: string;
  initialSource: string;
  onSaved: () => void;
}) {
  const [name, setName] = useState(initialName);
  const [source, setSource] = useState(initialSource);
  const [saved, setSaved] = useState({ name: initialName, source: initialSource });
  const preview = useEmailPreview(app, { themeTsxSource: source, templateTsxSource: SAMPLE_TEMPLATE });
  const save = useAction(async () => {
    await app.updateEmailTheme(id, { displayName: name, tsxSource: source });
    setSaved({ name, source });
    onSaved();
    return "Theme saved.";
  });
  const changed = name !== saved.name || source !== saved.source;
  return (
    <TsxEditorForm
      head={
        <Field label="Theme name">
          {(props) => <input {...props} className="input" value={name} required onChange={(e) => setName(e.target.value)} />}
        </Field>
      }
      save={save}
      changed={changed}
      source={source}
      onSource={setSource}
      label="Theme source"
      preview={preview}
    />
  );
}
