/** Where the project's apps may run (trusted domains, localhost), and the switch to production mode with its checklist. */
import { useEffect, useState } from "react";
import { ALLOW_LOCALHOST_ANCHOR, trustedDomainAnchor } from "@latchkey/shared/setting-anchors";
import { useLocation } from "react-router";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { useUpdateProject } from "../../lib/save-project.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { SettingToggle } from "../../ui/setting-toggle.tsx";
import { Empty } from "../../ui/states.tsx";
import { Table } from "../../ui/table.tsx";
import { DomainForm } from "./domain-form.tsx";
import { ProductionModeCard } from "./production-mode.tsx";
import "./domains.css";

/** A link to #anchor (from the checklist, or from outside) brings that setting into view and puts focus on it. */
function useFocusHash() {
  const { hash } = useLocation();
  useEffect(() => {
    if (!hash) return;
    const target = document.getElementById(decodeURIComponent(hash.slice(1)));
    if (!target) return;
    target.scrollIntoView({ block: "center" });
    target.focus({ preventScroll: true });
  }, [hash]);
}

export default function DomainsPage() {
  const project = useCurrentProject();
  const [editing, setEditing] = useState<number | "new" | null>(null);
  useFocusHash();
  return (
    <Page
      title="Domains"
      description="Latchkey only sends people back to addresses listed here, so links in e-mails and sign-in redirects cannot lead elsewhere."
    >
      <Dialog open={editing !== null} title={editing === "new" ? "Add a domain" : "Change a domain"} onClose={() => setEditing(null)}>
        {editing !== null ? <DomainForm index={editing === "new" ? undefined : editing} onDone={() => setEditing(null)} /> : null}
      </Dialog>
      <Card
        title="Trusted domains"
        actions={
          <button type="button" className="button" onClick={() => setEditing("new")}>
            Add domain
          </button>
        }
      >
        {project.config.domains.length === 0 ? (
          <Empty>
            <p>No trusted domains yet. Add the address of each app that signs people in with this project.</p>
          </Empty>
        ) : (
          <Table columns={["Domain", "Handler path"]} actions>
            {project.config.domains.map((d, index) => (
              <DomainRow key={`${index}:${d.domain}`} index={index} onEdit={() => setEditing(index)} />
            ))}
          </Table>
        )}
      </Card>
      <Card title="Development">
        <SettingToggle
          id={ALLOW_LOCALHOST_ANCHOR}
          label="Allow localhost"
          hint="Apps running on your own computer (localhost, 127.0.0.1) may sign people in, whatever their port. Turn it off for production."
          checked={project.config.allowLocalhost}
          update={(on) => ({ config: { allowLocalhost: on } })}
        />
      </Card>
      <ProductionModeCard />
    </Page>
  );
}

function DomainRow({ index, onEdit }: { index: number; onEdit: () => void }) {
  const domains = useCurrentProject().config.domains;
  const domain = domains[index]!;
  const update = useUpdateProject();
  const remove = () =>
    update({
      config: { domains: domains.filter((_, i) => i !== index).map((d) => ({ domain: d.domain, handlerPath: d.handlerPath })) },
    });
  return (
    <tr id={trustedDomainAnchor(index)} tabIndex={-1} className="domain-row">
      <td className="mono">{domain.domain}</td>
      <td className="mono">{domain.handlerPath}</td>
      <td className="row-actions">
        <button type="button" className="button button-secondary button-small" onClick={onEdit}>
          Edit<span className="visually-hidden"> {domain.domain}</span>
        </button>
        <ConfirmButton
          label="Remove"
          ariaLabel={`Remove ${domain.domain}`}
          title="Remove this domain?"
          confirmLabel="Remove domain"
          pendingLabel="Removing…"
          action={remove}
        >
          <p>
            Sign-in and e-mail links stop working for apps at <span className="mono">{domain.domain}</span>.
          </p>
        </ConfirmButton>
      </td>
    </tr>
  );
}
