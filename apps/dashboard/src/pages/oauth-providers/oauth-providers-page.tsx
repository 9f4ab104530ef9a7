/** Sign-in with other services: each provider on or off, with shared or the project's own keys, and how same-address accounts meet. */
import { OAUTH_PROVIDER_IDS, type OAuthProviderId } from "@latchkey/js";
import { OAuthProviderMark, oauthProviderName } from "@latchkey/react";
import { useSearchParams } from "react-router";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { MergeStrategyCard } from "./merge-strategy.tsx";
import { ProviderForm } from "./provider-form.tsx";
import "./oauth-providers.css";

function isProviderId(value: string | null): value is OAuthProviderId {
  return (OAUTH_PROVIDER_IDS as readonly string[]).includes(value ?? "");
}

export default function OAuthProvidersPage() {
  const project = useCurrentProject();
  // The provider being edited lives in the URL, so a link or a reload opens it again.
  const [params, setParams] = useSearchParams();
  const editing = params.get("provider");
  const open = (id: OAuthProviderId | null) =>
    setParams(
      (p) => {
        const next = new URLSearchParams(p);
        if (id) next.set("provider", id);
        else next.delete("provider");
        return next;
      },
      { replace: id === null },
    );
  return (
    <Page title="OAuth providers" description="Let people sign in with an account they already have elsewhere.">
      <Dialog
        open={isProviderId(editing)}
        title={isProviderId(editing) ? oauthProviderName(editing) : "Provider"}
        onClose={() => open(null)}
      >
        {isProviderId(editing) ? <ProviderForm key={editing} id={editing} onDone={() => open(null)} /> : null}
      </Dialog>
      <Card title="Providers">
        <ul className="provider-list">
          {OAUTH_PROVIDER_IDS.map((id) => {
            const entry = project.config.oauthProviders.find((p) => p.id === id);
            const name = oauthProviderName(id);
            return (
              <li key={id} className="provider-row" aria-label={name}>
                <span className="provider-mark">
                  <OAuthProviderMark id={id} />
                </span>
                <span className="provider-name">{name}</span>
                <span className={`provider-status${entry ? " provider-status-on" : ""}`}>
                  {!entry ? "Off" : entry.type === "shared" ? "On · shared keys" : "On · own keys"}
                </span>
                <button type="button" className="button button-secondary button-small" onClick={() => open(id)}>
                  {entry ? "Edit" : "Set up"}
                  <span className="visually-hidden"> {name}</span>
                </button>
              </li>
            );
          })}
        </ul>
      </Card>
      <MergeStrategyCard />
    </Page>
  );
}
