/**
 * The project's Stripe account: its state as Stripe last said it, onboarding
 * through the server's Stripe platform (Stripe's own page, opened from here),
 * or the project's own secret key and webhook signing secret instead, which
 * the server checks with Stripe and keeps encrypted.
 */
import { useState } from "react";
import { useAdminApp } from "../../lib/owned-projects.tsx";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";
import { Dialog, FormActions } from "../../ui/dialog.tsx";
import { Field } from "../../ui/field.tsx";
import { Card } from "../../ui/page.tsx";
import { ActionStatus, Loaded } from "../../ui/states.tsx";

export function StripeCard() {
  const app = useAdminApp();
  const info = useLoad(() => app.getStripeAccountInfo(), [app]);
  const [ownKey, setOwnKey] = useState(false);
  const onboard = useAction(async () => {
    const { url } = await app.setupPayments();
    window.location.assign(url);
  });
  return (
    <Card
      title="Stripe"
      description="Where real payments go. Connect onboards the project as an account of this server's Stripe platform; or use your own Stripe account's secret key."
      actions={
        <>
          <button type="button" className="button" disabled={onboard.pending} onClick={() => void onboard.run()}>
            {onboard.pending ? "Opening Stripe…" : "Onboard with Stripe"}
          </button>
          <button type="button" className="button button-secondary" onClick={() => setOwnKey(true)}>
            Use my own Stripe key
          </button>
        </>
      }
    >
      <ActionStatus error={onboard.error} />
      <Dialog open={ownKey} title="Use your own Stripe account" onClose={() => setOwnKey(false)}>
        {ownKey ? (
          <OwnKeyForm
            onDone={(saved) => {
              setOwnKey(false);
              if (saved) info.reload();
            }}
          />
        ) : null}
      </Dialog>
      <Loaded load={info} label="Asking Stripe…">
        {(account) =>
          account === null ? (
            <p className="muted">No Stripe account yet: only test-mode purchases can be made.</p>
          ) : (
            <dl className="facts" aria-label="Stripe account">
              <dt>Account</dt>
              <dd className="mono">{account.account_id}</dd>
              <dt>Can charge</dt>
              <dd>{account.charges_enabled ? "Yes" : "Not yet"}</dd>
              <dt>Details submitted</dt>
              <dd>{account.details_submitted ? "Yes" : "Not yet"}</dd>
              <dt>Payouts</dt>
              <dd>{account.payouts_enabled ? "Enabled" : "Not yet"}</dd>
            </dl>
          )
        }
      </Loaded>
    </Card>
  );
}

function OwnKeyForm({ onDone }: { onDone: (saved: boolean) => void }) {
  const app = useAdminApp();
  const [secretKey, setSecretKey] = useState("");
  const [webhookSecret, setWebhookSecret] = useState("");
  const [publishableKey, setPublishableKey] = useState("");
  const action = useAction(async () => {
    await app.setStripeOwnKey({
      secretKey: secretKey.trim(),
      webhookSecret: webhookSecret.trim(),
      publishableKey: publishableKey.trim() || undefined,
    });
  });
  return (
    <form
      className="form"
      onSubmit={(e) => {
        e.preventDefault();
        void action.run().then((ok) => ok && onDone(true));
      }}
    >
      <Field label="Secret key" hint="From Stripe's dashboard (sk_live_… or sk_test_…). Checked with Stripe, then kept encrypted.">
        {(props) => (
          <input
            {...props}
            className="input mono"
            type="password"
            autoComplete="off"
            required
            value={secretKey}
            onChange={(e) => setSecretKey(e.target.value)}
          />
        )}
      </Field>
      <Field label="Webhook signing secret" hint="Of the webhook endpoint you add in Stripe for this project (whsec_…).">
        {(props) => (
          <input
            {...props}
            className="input mono"
            type="password"
            autoComplete="off"
            required
            value={webhookSecret}
            onChange={(e) => setWebhookSecret(e.target.value)}
          />
        )}
      </Field>
      <Field
        label="Publishable key"
        hint="Of the same account (pk_live_… or pk_test_…): the purchase page's card form needs it. Left empty, buyers cannot pay by card."
      >
        {(props) => (
          <input
            {...props}
            className="input mono"
            autoComplete="off"
            value={publishableKey}
            onChange={(e) => setPublishableKey(e.target.value)}
          />
        )}
      </Field>
      <ActionStatus error={action.error} />
      <FormActions onCancel={() => onDone(false)} pending={action.pending} submitLabel="Save keys" pendingLabel="Checking with Stripe…" />
    </form>
  );
}
