/**
 * The project's webhooks: its endpoints (each opens its own page: secret, test send, attempts), adding one,
 * and the log of every message sent, each with its attempts.
 */
import { useState } from "react";
import { Link, useNavigate } from "react-router";
import { Dialog } from "../../ui/dialog.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { Empty, Loaded } from "../../ui/states.tsx";
import { Table } from "../../ui/table.tsx";
import { EndpointForm } from "./endpoint-form.tsx";
import { MessageLog } from "./message-log.tsx";
import { LoadMore, usePagedLoad } from "./paged-load.tsx";
import { useWebhooksApi, type WebhookEndpoint } from "./webhooks-api.ts";
import "./webhooks.css";

export default function WebhooksPage() {
  const api = useWebhooksApi();
  const navigate = useNavigate();
  const endpoints = usePagedLoad((iterator) => api.listEndpoints(iterator), [api]);
  const [adding, setAdding] = useState(false);
  return (
    <Page
      title="Webhooks"
      description="Your servers hear of users, teams and sessions as they change: each event is POSTed to the endpoints below, signed, and retried until it is taken."
      actions={
        <button type="button" className="button" onClick={() => setAdding(true)}>
          Add endpoint
        </button>
      }
    >
      <Dialog open={adding} title="Add endpoint" onClose={() => setAdding(false)}>
        <EndpointForm
          submitLabel="Add endpoint"
          pendingLabel="Adding…"
          save={async (input) => {
            const created = await api.createEndpoint(input);
            setAdding(false);
            // Its page is where its secret is, which the receiver needs next.
            navigate(created.id);
          }}
        />
      </Dialog>
      <Card title="Endpoints">
        <Loaded load={endpoints}>
          {(list) =>
            list.length === 0 ? (
              <Empty>
                <p>No endpoints yet. Add the URL of a server that should hear of this project's events.</p>
              </Empty>
            ) : (
              <>
                <Table columns={["URL", "Description", "Events", "Status"]} label="Endpoints">
                  {list.map((endpoint) => (
                    <EndpointRow key={endpoint.id} endpoint={endpoint} />
                  ))}
                </Table>
                <LoadMore list={endpoints} />
              </>
            )
          }
        </Loaded>
      </Card>
      <MessageLog api={api} endpoints={endpoints.data ?? []} />
    </Page>
  );
}

/** The events an endpoint is sent, in words. */
export function eventsText(endpoint: WebhookEndpoint): string {
  return endpoint.filterTypes ? endpoint.filterTypes.join(", ") : "All events";
}

function EndpointRow({ endpoint }: { endpoint: WebhookEndpoint }) {
  return (
    <tr>
      <td>
        <Link to={endpoint.id} className="mono">
          {endpoint.url}
        </Link>
      </td>
      <td>{endpoint.description}</td>
      <td className="small">{eventsText(endpoint)}</td>
      <td>
        <EndpointStatus endpoint={endpoint} />
      </td>
    </tr>
  );
}

export function EndpointStatus({ endpoint }: { endpoint: WebhookEndpoint }) {
  return endpoint.disabled ? <span className="badge badge-warning">Disabled</span> : <span className="badge badge-success">Enabled</span>;
}
