/** One webhook endpoint: its settings, enabling and disabling it, its secret, a test send, its attempts, and deleting it. */
import { useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Toggle } from "../../ui/field.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { ActionStatus, Empty, Loaded, RefreshButton } from "../../ui/states.tsx";
import { AttemptsTable } from "./attempts-table.tsx";
import { EndpointForm } from "./endpoint-form.tsx";
import { EndpointSecretCard } from "./endpoint-secret-card.tsx";
import { LoadMore, usePagedLoad } from "./paged-load.tsx";
import { TestSendCard } from "./test-send-card.tsx";
import { useWatchNewAttempt } from "./watch-new-attempt.ts";
import { WebhooksApiError, useWebhooksApi, type WebhookEndpoint, type WebhooksApi } from "./webhooks-api.ts";
import { EndpointStatus, eventsText } from "./webhooks-page.tsx";
import "./webhooks.css";

export default function EndpointPage() {
  const { endpointId = "" } = useParams();
  // A fresh page per endpoint: nothing of the previous one stays, or is acted on, while the next one loads.
  return <Endpoint key={endpointId} endpointId={endpointId} />;
}

function Endpoint({ endpointId }: { endpointId: string }) {
  const api = useWebhooksApi();
  const endpoint = useLoad(async () => {
    try {
      return await api.getEndpoint(endpointId);
    } catch (error) {
      if (error instanceof WebhooksApiError && error.status === 404) return null;
      throw error;
    }
  }, [api, endpointId]);
  return (
    <Loaded load={endpoint}>
      {(found) =>
        found ? (
          <EndpointView api={api} endpoint={found} onChanged={endpoint.reload} />
        ) : (
          <Page title="Endpoint not found">
            <Empty>
              <p>This project has no webhook endpoint with the id {endpointId}.</p>
              <Link to="../webhooks">Back to webhooks</Link>
            </Empty>
          </Page>
        )
      }
    </Loaded>
  );
}

function EndpointView({ api, endpoint, onChanged }: { api: WebhooksApi; endpoint: WebhookEndpoint; onChanged: () => void }) {
  const navigate = useNavigate();
  const [editing, setEditing] = useState(false);
  const attempts = usePagedLoad((iterator) => api.endpointAttempts(endpoint.id, iterator), [api, endpoint.id]);
  const watchNewAttempt = useWatchNewAttempt(attempts);
  const enable = useAction(async (on: boolean) => {
    await api.updateEndpoint(endpoint.id, { disabled: !on });
    onChanged();
  });
  return (
    <Page
      title={endpoint.description || "Webhook endpoint"}
      description={
        <>
          <Link to="../webhooks">Webhooks</Link> · <span className="mono small">{endpoint.id}</span> ·{" "}
          <EndpointStatus endpoint={endpoint} />
        </>
      }
    >
      <Card
        title="Endpoint"
        actions={
          <button type="button" className="button button-secondary button-small" onClick={() => setEditing(!editing)}>
            {editing ? "Cancel" : "Edit"}
          </button>
        }
      >
        {editing ? (
          <EndpointForm
            endpoint={endpoint}
            submitLabel="Save endpoint"
            pendingLabel="Saving…"
            save={async (input) => {
              await api.updateEndpoint(endpoint.id, input);
              setEditing(false);
              onChanged();
            }}
          />
        ) : (
          <dl className="webhook-endpoint-facts">
            <dt>URL</dt>
            <dd className="mono">{endpoint.url}</dd>
            <dt>Events</dt>
            <dd className="small">{eventsText(endpoint)}</dd>
            <dt>Created</dt>
            <dd>{endpoint.createdAt.toLocaleString()}</dd>
          </dl>
        )}
        <div className="webhook-enabled">
          <Toggle
            label="Enabled"
            hint="A disabled endpoint is sent nothing. One whose deliveries have all failed for five days is disabled by the server."
            checked={!endpoint.disabled}
            disabled={enable.pending}
            onChange={(on) => void enable.run(on)}
          />
          <ActionStatus error={enable.error} pending={enable.pending} />
        </div>
      </Card>
      <EndpointSecretCard api={api} endpoint={endpoint} />
      <TestSendCard endpoint={endpoint} onSent={watchNewAttempt} />
      <Card title="Attempts" description="Each delivery to this endpoint, newest first." actions={<RefreshButton load={attempts} small />}>
        <Loaded load={attempts}>
          {(list) =>
            list.length === 0 ? (
              <Empty>
                <p>Nothing has been sent to this endpoint yet.</p>
              </Empty>
            ) : (
              <>
                <AttemptsTable api={api} attempts={list} label="Attempts" column="event" onResent={watchNewAttempt} />
                <LoadMore list={attempts} />
              </>
            )
          }
        </Loaded>
      </Card>
      <Card title="Delete endpoint">
        <p className="muted">The endpoint is sent nothing more, and its attempts leave the log.</p>
        <div>
          <ConfirmButton
            label="Delete endpoint"
            title="Delete this endpoint?"
            confirmLabel="Delete endpoint"
            pendingLabel="Deleting…"
            small={false}
            action={async () => {
              await api.deleteEndpoint(endpoint.id);
              navigate("../webhooks");
            }}
          >
            <p>
              <span className="mono">{endpoint.url}</span> will be sent no more events. This cannot be undone.
            </p>
          </ConfirmButton>
        </div>
      </Card>
    </Page>
  );
}
