/**
 * The log of the project's messages, newest first: each event's type, id and time, and on demand its
 * attempts at every endpoint (with a Resend each). The server keeps the log for 90 days.
 */
import { useState } from "react";
import { Card } from "../../ui/page.tsx";
import { Empty, Loaded, RefreshButton } from "../../ui/states.tsx";
import { Table } from "../../ui/table.tsx";
import { AttemptsTable } from "./attempts-table.tsx";
import { LoadMore, usePagedLoad } from "./paged-load.tsx";
import { useWatchNewAttempt } from "./watch-new-attempt.ts";
import type { WebhookEndpoint, WebhookMessage, WebhooksApi } from "./webhooks-api.ts";

export function MessageLog({ api, endpoints }: { api: WebhooksApi; endpoints: WebhookEndpoint[] }) {
  const messages = usePagedLoad((iterator) => api.listMessages(iterator), [api]);
  return (
    <Card
      title="Message log"
      description="Every event sent, newest first, kept for 90 days."
      actions={<RefreshButton load={messages} small />}
    >
      <Loaded load={messages}>
        {(list) =>
          list.length === 0 ? (
            <Empty>
              <p>No events yet. {endpoints.length > 0 ? "Send a test event from an endpoint's page." : ""}</p>
            </Empty>
          ) : (
            <>
              <Table columns={["Event", "Message id", "Time"]} actions label="Messages">
                {list.map((message) => (
                  <MessageRows key={message.id} api={api} message={message} />
                ))}
              </Table>
              <LoadMore list={messages} />
            </>
          )
        }
      </Loaded>
    </Card>
  );
}

function MessageRows({ api, message }: { api: WebhooksApi; message: WebhookMessage }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <tr>
        <td className="mono">{message.eventType}</td>
        <td className="mono small">{message.id}</td>
        <td className="small">{message.timestamp.toLocaleString()}</td>
        <td>
          <div className="row-actions">
            <button
              type="button"
              className="button button-secondary button-small"
              aria-expanded={open}
              aria-label={`${open ? "Hide attempts" : "Attempts"} of ${message.eventType} ${message.id}`}
              onClick={() => setOpen(!open)}
            >
              {open ? "Hide attempts" : "Attempts"}
            </button>
          </div>
        </td>
      </tr>
      {open ? (
        <tr className="webhook-attempts-row">
          <td colSpan={4}>
            <MessageAttempts api={api} message={message} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function MessageAttempts({ api, message }: { api: WebhooksApi; message: WebhookMessage }) {
  const attempts = usePagedLoad((iterator) => api.messageAttempts(message.id, iterator), [api, message.id]);
  const watchNewAttempt = useWatchNewAttempt(attempts);
  return (
    <div className="webhook-attempts">
      <Loaded load={attempts}>
        {(list) =>
          list.length === 0 ? (
            <p className="muted small">No attempts yet: no endpoint wanted this event, or its delivery is still queued.</p>
          ) : (
            <>
              <AttemptsTable api={api} attempts={list} label={`Attempts of ${message.id}`} column="endpoint" onResent={watchNewAttempt} />
              <LoadMore list={attempts} />
            </>
          )
        }
      </Loaded>
      <div>
        <button type="button" className="button button-secondary button-small" onClick={attempts.reload}>
          Refresh attempts
        </button>
      </div>
    </div>
  );
}
