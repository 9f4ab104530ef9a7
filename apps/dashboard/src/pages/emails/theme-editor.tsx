/** One theme: its name and TSX, previewed live around a sample template; save; the AI assistant when offered. */
import type { StackAdminApp } from "@latchkey/js";
import { useLoad } from "../../lib/use-load.ts";
import { Field } from "../../ui/field.tsx";
import { Loaded } from "../../ui/states.tsx";
import { TsxEditorForm } from "./tsx-editor-form.tsx";
import { useEmailPreview } from "./use-email-preview.ts";
import { useTsxEdit } from "./use-tsx-edit.ts";

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
  const edit = useTsxEdit(
    { name: initialName, source: initialSource },
    ({ name, source }) => app.updateEmailTheme(id, { displayName: name, tsxSource: source }),
    "Theme",
    onSaved,
  );
  const preview = useEmailPreview(app, { themeTsxSource: edit.edited.source, templateTsxSource: SAMPLE_TEMPLATE });
  return (
    <TsxEditorForm
      head={
        <Field label="Theme name">
          {(props) => (
            <input {...props} className="input" value={edit.edited.name} required onChange={(e) => edit.set("name", e.target.value)} />
          )}
        </Field>
      }
      edit={edit}
      label="Theme source"
      preview={preview}
      assistant={{ app, threadId: id, contextType: "email-theme" }}
    />
  );
}
