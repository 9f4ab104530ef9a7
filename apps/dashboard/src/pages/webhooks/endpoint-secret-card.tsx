/**
 * An endpoint's signing secret: hidden until asked for, then shown with a Copy button; rotating it asks first,
 * and says that the old secret keeps signing for a day, so receivers can move to the new one without a gap.
 */
import { useState } from "react";
import { useAction } from "../../lib/use-action.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { CopyField } from "../../ui/copy-field.tsx";
import { Card } from "../../ui/page.tsx";
import { ActionStatus } from "../../ui/states.tsx";
import type { WebhookEndpoint, WebhooksApi } from "./webhooks-api.ts";

export function EndpointSecretCard({ api, endpoint }: { api: WebhooksApi; endpoint: WebhookEndpoint }) {
  const [secret, setSecret] = useState<string | null>(null);
  const reveal = useAction(async () => setSecret(await api.secret(endpoint.id)));
  const [rotated, setRotated] = useState(false);
  return (
    <Card
      title="Signing secret"
      description="Your receiver checks each delivery's signature with this secret (verifyWebhook in @latchkey/js does it)."
    >
      {secret ? <CopyField label="Secret" value={secret} secret /> : null}
      <ActionStatus error={reveal.error} />
      {rotated ? (
        <p className="notice notice-success" role="status">
          The secret was rotated. The old one keeps signing deliveries, beside the new one, for 24 hours.
        </p>
      ) : null}
      <div className="row-actions webhook-secret-actions">
        {secret ? null : (
          <button type="button" className="button button-secondary" disabled={reveal.pending} onClick={() => void reveal.run()}>
            {reveal.pending ? "Loading…" : "Reveal secret"}
          </button>
        )}
        <ConfirmButton
          label="Rotate secret"
          title="Rotate this endpoint's secret?"
          confirmLabel="Rotate secret"
          pendingLabel="Rotating…"
          small={false}
          action={async () => {
            await api.rotateSecret(endpoint.id);
            setRotated(true);
            // A secret on screen is the old one now: show the new one in its place.
            if (secret !== null) setSecret(await api.secret(endpoint.id));
          }}
        >
          <p>
            A new secret signs every delivery from now on. The old one keeps signing them too for 24 hours, so update your receiver within a
            day.
          </p>
        </ConfirmButton>
      </div>
    </Card>
  );
}
