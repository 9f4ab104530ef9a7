/**
 * How to connect an app to this project: a guide per stack, filled with the
 * project's id and this server's URL. Right after the first run the new
 * publishable key comes in the navigation's state (never the URL), is shown
 * on this visit only, and is dropped from the history entry so a reload or a
 * later visit shows a placeholder instead.
 */
import { useEffect, useState } from "react";
import { Link, useLocation, useNavigate, useSearchParams } from "react-router";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { Tabs } from "../../ui/tabs.tsx";
import { CodeBlock } from "../../ui/code-block.tsx";
import { guides, KEY_PLACEHOLDER } from "./snippets.ts";
import "./setup.css";
import { serverUrl } from "../../lib/server-url.ts";

/** What the first run hands this page through navigation state. */
export interface NewKeyState {
  projectId: string;
  publishableClientKey: string;
}

function newKeyOf(state: unknown): NewKeyState | null {
  if (typeof state !== "object" || state === null) return null;
  const { projectId, publishableClientKey } = state as Partial<NewKeyState>;
  return typeof projectId === "string" && typeof publishableClientKey === "string" ? { projectId, publishableClientKey } : null;
}

export default function SetupPage() {
  const project = useCurrentProject();
  const location = useLocation();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const [given] = useState(() => newKeyOf(location.state));
  const key = given?.projectId === project.id ? given.publishableClientKey : null;

  useEffect(() => {
    if (location.state !== null) void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: null });
  }, [location, navigate]);

  const all = guides({ baseUrl: serverUrl(), projectId: project.id, publishableClientKey: key ?? KEY_PLACEHOLDER });
  const guide = all.find((g) => g.id === params.get("tab")) ?? all[0]!;
  return (
    <Page title="Setup" description={`Connect your app to ${project.displayName}: pick your stack and paste the code.`}>
      {key ? (
        <p className="notice notice-success" role="status">
          Your new publishable client key is filled in below. It is shown here only on this visit.
        </p>
      ) : (
        <p className="notice notice-warning">
          The snippets show a placeholder for the publishable client key: copy one you saved, or create a set on the{" "}
          <Link to={`/projects/${project.id}/keys`}>Project keys</Link> page.
        </p>
      )}
      <Card>
        <Tabs label="Your app's stack" tabs={all} selected={guide.id} onSelect={(id) => setParams({ tab: id }, { replace: true })}>
          <p className="muted">{guide.intro}</p>
          {guide.files.map((file) => (
            <CodeBlock key={file.name} name={file.name} code={file.code} copyLabel={`Copy ${file.name}`} />
          ))}
        </Tabs>
      </Card>
      <Card title="Your project">
        <dl className="setup-facts">
          <dt>Project ID</dt>
          <dd className="mono">{project.id}</dd>
          <dt>API URL</dt>
          <dd className="mono">{serverUrl()}/api/v1</dd>
        </dl>
      </Card>
    </Page>
  );
}
