/** One OAuth provider's settings: on or off, shared or own keys, the fields the provider needs, and the callback URL. */
import type { OAuthProviderId } from "@latchkey/js";
import { oauthProviderName, useConfig } from "@latchkey/react";
import { useState } from "react";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { useSaveConfig } from "../../lib/save-config.ts";
import { CopyField } from "../../ui/copy-field.tsx";
import { Field, Toggle } from "../../ui/field.tsx";
import { ActionStatus } from "../../ui/states.tsx";
import { callbackUrl, providerOverride, type ProviderEntry } from "./provider-entries.ts";

export function ProviderForm({ id, onDone }: { id: OAuthProviderId; onDone: () => void }) {
  const project = useCurrentProject();
  const config = useConfig(project);
  const saved = project.config.oauthProviders.find((p) => p.id === id);
  const name = oauthProviderName(id);
  const [enabled, setEnabled] = useState(saved !== undefined);
  const [type, setType] = useState<"shared" | "standard">(saved?.type ?? "shared");
  const [clientId, setClientId] = useState(saved?.clientId ?? "");
  const [clientSecret, setClientSecret] = useState("");
  const [facebookConfigId, setFacebookConfigId] = useState(saved?.facebookConfigId ?? "");
  const [microsoftTenantId, setMicrosoftTenantId] = useState(saved?.microsoftTenantId ?? "");
  const [appleBundleIds, setAppleBundleIds] = useState((saved?.appleBundleIds ?? []).join("\n"));
  const save = useSaveConfig();
  // The server shows a stored secret only masked, and keeps it when that mask is written back.
  const hasSecret = saved?.type === "standard" && Boolean(saved.clientSecret);

  const entry = (): ProviderEntry => {
    if (type === "shared") return { type };
    const bundleIds = appleBundleIds
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean);
    const keptSecret = hasSecret ? saved.clientSecret : undefined;
    return {
      type,
      clientId: clientId.trim(),
      ...(clientSecret || keptSecret ? { clientSecret: clientSecret || keptSecret } : {}),
      ...(id === "facebook" && facebookConfigId.trim() ? { facebookConfigId: facebookConfigId.trim() } : {}),
      ...(id === "microsoft" && microsoftTenantId.trim() ? { microsoftTenantId: microsoftTenantId.trim() } : {}),
      ...(id === "apple" && bundleIds.length > 0 ? { appleBundleIds: bundleIds } : {}),
    };
  };

  return (
    <form
      className="form provider-form"
      onSubmit={(e) => {
        e.preventDefault();
        void save.run(providerOverride(config, id, enabled ? entry() : null)).then((ok) => ok && onDone());
      }}
    >
      <Toggle
        label={`Offer sign-in with ${name}`}
        hint={saved && !enabled ? `Saving removes ${name} from the project, with its keys.` : undefined}
        checked={enabled}
        onChange={setEnabled}
      />
      {enabled ? (
        <>
          <fieldset className="fieldset">
            <legend>Keys</legend>
            <label className="radio-choice">
              <input type="radio" name="keys" checked={type === "shared"} onChange={() => setType("shared")} />
              <span>
                <span>Shared keys</span>
                <span className="field-hint">For trying things out: no {name} app of your own needed.</span>
              </span>
            </label>
            <label className="radio-choice">
              <input type="radio" name="keys" checked={type === "standard"} onChange={() => setType("standard")} />
              <span>
                <span>Your own keys</span>
                <span className="field-hint">Your own {name} app: people see your app's name, and you can go to production.</span>
              </span>
            </label>
          </fieldset>
          {type === "shared" ? (
            <p className="notice notice-warning">
              Shared keys are the {name} app of whoever runs this Latchkey server, set in the server's environment. If the server has none
              for {name}, sign-in with {name} fails. Shared keys cannot ask {name} for more than the person's profile and cannot give your
              app {name} access tokens.
            </p>
          ) : (
            <>
              <CopyField label="Callback URL" value={callbackUrl(id)} />
              <p className="field-hint provider-callback-hint">
                Paste this as the callback (redirect) URL in your {name} app's settings, then copy the app's client ID and secret here.
              </p>
              <Field label="Client ID">
                {(props) => (
                  <input
                    {...props}
                    className="input mono"
                    required
                    autoComplete="off"
                    value={clientId}
                    onChange={(e) => setClientId(e.target.value)}
                  />
                )}
              </Field>
              <Field
                label="Client secret"
                hint={
                  hasSecret
                    ? `A secret is saved (${saved.clientSecret}). Leave this empty to keep it.`
                    : "Stored encrypted; it is never shown again."
                }
              >
                {(props) => (
                  <input
                    {...props}
                    className="input mono"
                    type="password"
                    required={!hasSecret}
                    autoComplete="new-password"
                    value={clientSecret}
                    onChange={(e) => setClientSecret(e.target.value)}
                  />
                )}
              </Field>
              {id === "facebook" ? (
                <Field label="Configuration ID (optional)" hint="Only for Facebook Login for Business: the configuration to use.">
                  {(props) => (
                    <input
                      {...props}
                      className="input mono"
                      value={facebookConfigId}
                      onChange={(e) => setFacebookConfigId(e.target.value)}
                    />
                  )}
                </Field>
              ) : null}
              {id === "microsoft" ? (
                <Field
                  label="Tenant ID (optional)"
                  hint="Who may sign in: your directory's tenant ID, or organizations, consumers or common (the default)."
                >
                  {(props) => (
                    <input
                      {...props}
                      className="input mono"
                      value={microsoftTenantId}
                      onChange={(e) => setMicrosoftTenantId(e.target.value)}
                    />
                  )}
                </Field>
              ) : null}
              {id === "apple" ? (
                <Field label="Bundle IDs (optional)" hint="Your iOS and macOS apps that sign in with Apple natively, one per line.">
                  {(props) => (
                    <textarea
                      {...props}
                      className="input mono"
                      rows={3}
                      value={appleBundleIds}
                      onChange={(e) => setAppleBundleIds(e.target.value)}
                    />
                  )}
                </Field>
              ) : null}
            </>
          )}
        </>
      ) : null}
      <ActionStatus error={save.error} />
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="button" disabled={save.pending || (!saved && !enabled)}>
          {save.pending ? "Saving…" : "Save"}
        </button>
      </div>
    </form>
  );
}
