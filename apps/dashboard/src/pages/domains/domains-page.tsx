/** Where the project's apps may run (trusted domains, localhost), and the switch to production mode with its checklist. */
import { useConfig } from "@latchkey/react";
import { useEffect, useState } from "react";
import { ALLOW_LOCALHOST_ANCHOR, trustedDomainAnchor } from "@latchkey/shared/setting-anchors";
import { useLocation } from "react-router";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { SavingToggle } from "../../ui/setting-toggle.tsx";
import { Empty } from "../../ui/states.tsx";
import { Table } from "../../ui/table.tsx";
import { DomainForm } from "./domain-form.tsx";
import { ProductionModeCard } from "./production-mode.tsx";
import { trustedDomainsOf, useSaveDomains, type TrustedDomain } from "./trusted-domains.ts";
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
  const config = useConfig(project);
  const domains = trustedDomainsOf(config);
  const save = useSaveDomains();
  const [editing, setEditing] = useState<number | "new" | null>(null);
  useFocusHash();
  return (
    <Page
      title="Domains"
      description="Latchkey only sends people back to addresses listed here, so links in e-mails and sign-in redirects cannot lead elsewhere."
    >
      <Dialog open={editing !== null} title={editing === "new" ? "Add a domain" : "Change a domain"} onClose={() => setEditing(null)}>
        {editing !== null ? (
          <DomainForm
            {...(editing === "new" || !domains[editing] ? {} : { editing: domains[editing] })}
            save={save.change}
            onDone={() => setEditing(null)}
          />
        ) : null}
      </Dialog>
      <Card
        title="Trusted domains"
        actions={
          <button type="button" className="button" onClick={() => setEditing("new")}>
            Add domain
          </button>
        }
      >
        {domains.length === 0 ? (
          <Empty>
            <p>No trusted domains yet. Add the address of each app that signs people in with this project.</p>
          </Empty>
        ) : (
          <Table columns={["Domain", "Handler path"]} actions>
            {domains.map((d, index) => (
              <DomainRow
                key={d.key}
                index={index}
                domain={d}
                remove={() => save.change({ key: d.key, entry: null })}
                onEdit={() => setEditing(index)}
              />
            ))}
          </Table>
        )}
      </Card>
      <Card title="Development">
        <SavingToggle
          id={ALLOW_LOCALHOST_ANCHOR}
          label="Allow localhost"
          hint="Apps running on your own computer (localhost, 127.0.0.1) may sign people in, whatever their port. Turn it off for production."
          checked={config.domains.allowLocalhost}
          write={save.allowLocalhost}
        />
      </Card>
      <ProductionModeCard />
    </Page>
  );
}

function DomainRow({
  index,
  domain,
  remove,
  onEdit,
}: {
  index: number;
  domain: TrustedDomain;
  remove: () => Promise<void>;
  onEdit: () => void;
}) {
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
