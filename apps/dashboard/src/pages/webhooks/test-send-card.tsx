/**
 * A test send: a `stack.test` event delivered to this endpoint at once (it also joins the log, and other
 * endpoints that want it get it too), and whether the receiver took it.
 */
import { useAdminApp } from "../../lib/owned-projects.tsx";
import { useAction } from "../../lib/use-action.ts";
import { Card } from "../../ui/page.tsx";
import { ActionStatus } from "../../ui/states.tsx";
import type { WebhookEndpoint } from "./webhooks-api.ts";

export function TestSendCard({ endpoint, onSent }: { endpoint: WebhookEndpoint; onSent: () => void }) {
  const app = useAdminApp();
  const send = useAction(async () => {
    const result = await app.sendTestWebhook({ endpointId: endpoint.id });
    // Taken or not, the attempt is in the log now.
    onSent();
    if (result.status === "error") throw new Error(`The endpoint did not take the test event: ${result.error.errorMessage}`);
    return "The endpoint took the test event.";
  });
  return (
    <Card title="Send a test event" description="Sends a stack.test event to this endpoint now, signed as every delivery is.">
      <ActionStatus error={send.error} done={send.done} />
      <div>
        <button type="button" className="button button-secondary" disabled={send.pending} onClick={() => void send.run()}>
          {send.pending ? "Sending…" : "Send test event"}
        </button>
      </div>
    </Card>
  );
}
