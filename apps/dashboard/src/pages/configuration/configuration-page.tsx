/**
 * The project's configuration as the server holds it: the resolved document
 * the project runs with, and what each level's override sets (project, then
 * branch, then environment, later levels winning), as JSON to read and copy.
 * Secrets show masked. Every other settings page writes these keys; the
 * data vault's stores are added here (data-vault-card.tsx).
 */
import type { ConfigLevel } from "@latchkey/js";
import { useConfig } from "@latchkey/react";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { CodeBlock } from "../../ui/code-block.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { Loaded } from "../../ui/states.tsx";
import { DataVaultCard } from "./data-vault-card.tsx";

const LEVELS: { level: ConfigLevel; title: string; description: string }[] = [
  { level: "project", title: "Project override", description: "Keys of the project itself, for every branch." },
  { level: "branch", title: "Branch override", description: "The pushed config: what a deploy writes with pushConfig." },
  {
    level: "environment",
    title: "Environment override",
    description: "What the dashboard and updateConfig write: it wins over the branch, and holds this environment's secrets and domains.",
  },
];

export default function ConfigurationPage() {
  const project = useCurrentProject();
  const config = useConfig(project);
  const overrides = useLoad(() => Promise.all(LEVELS.map(({ level }) => project.getConfigOverride(level))), [project]);
  return (
    <Page
      title="Configuration"
      description="Every setting of the project as one document: the defaults, with each level's override written over them. Secrets are masked."
    >
      {/* A store added is written to the environment's override: its document below is read again. */}
      <DataVaultCard stores={config.dataVault.stores} onSaved={overrides.reload} />
      <Card title="Resolved config" description="What the project runs with now.">
        <JsonBlock name="resolved config" value={config} />
      </Card>
      <Loaded load={overrides} label="Loading the overrides…">
        {(stored) => (
          <>
            {LEVELS.map(({ level, title, description }, i) => (
              <Card key={level} title={title} description={description}>
                <JsonBlock name={`${level} override`} value={stored[i]} />
              </Card>
            ))}
          </>
        )}
      </Loaded>
    </Page>
  );
}

function JsonBlock({ name, value }: { name: string; value: unknown }) {
  return <CodeBlock name={name} code={JSON.stringify(value, null, 2)} copyLabel={`Copy the ${name}`} regionLabel={`The ${name} as JSON`} />;
}
