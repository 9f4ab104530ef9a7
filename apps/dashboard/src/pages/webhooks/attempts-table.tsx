/**
 * Delivery attempts: when, what the receiver answered (status code, how long it took, its body cut short), and
 * a Resend that delivers the message to that endpoint again (a new attempt, made by the server's job runner).
 */
import { useAction } from "../../lib/use-action.ts";
import { ActionStatus } from "../../ui/states.tsx";
import { Table } from "../../ui/table.tsx";
import { RESPONSE_PREVIEW_CHARS, type WebhookAttempt, type WebhooksApi } from "./webhooks-api.ts";

/** What an attempt's status says, and its badge. */
const STATUS_BADGE: Record<string, string> = { success: "badge-success", fail: "badge-warning" };

export function AttemptsTable({
  api,
  attempts,
  label,
  column,
  onResent,
}: {
  api: WebhooksApi;
  attempts: WebhookAttempt[];
  label: string;
  /** The column naming what each attempt was of: its message's event (an endpoint's log) or its endpoint (a message's). */
  column: "event" | "endpoint";
  onResent: () => void;
}) {
  return (
    <Table columns={["Time", column === "event" ? "Event" : "Endpoint", "Result", "Duration", "Response"]} actions label={label}>
      {attempts.map((attempt) => (
        <AttemptRow key={attempt.id} api={api} attempt={attempt} column={column} onResent={onResent} />
      ))}
    </Table>
  );
}

function AttemptRow({
  api,
  attempt,
  column,
  onResent,
}: {
  api: WebhooksApi;
  attempt: WebhookAttempt;
  column: "event" | "endpoint";
  onResent: () => void;
}) {
  const resend = useAction(async () => {
    await api.resend(attempt.msgId, attempt.endpointId);
    onResent();
    return "Resend queued.";
  });
  const response =
    attempt.response.length > RESPONSE_PREVIEW_CHARS ? `${attempt.response.slice(0, RESPONSE_PREVIEW_CHARS)}…` : attempt.response;
  return (
    <tr>
      <td className="small">{attempt.timestamp.toLocaleString()}</td>
      <td className="mono small">{column === "event" ? (attempt.msg?.eventType ?? attempt.msgId) : attempt.url}</td>
      <td>
        <span className={`badge ${STATUS_BADGE[attempt.statusText] ?? ""}`}>
          {attempt.responseStatusCode === 0 ? "No answer" : attempt.responseStatusCode}
        </span>{" "}
        <span className="small muted">{attempt.statusText}</span>
      </td>
      <td className="small">{attempt.responseDurationMs} ms</td>
      <td>
        <code className="webhook-response small" title={attempt.response}>
          {response || "(empty)"}
        </code>
      </td>
      <td>
        <div className="row-actions">
          <button
            type="button"
            className="button button-secondary button-small"
            aria-label={`Resend ${attempt.msg?.eventType ?? attempt.msgId} to ${attempt.url}`}
            disabled={resend.pending}
            onClick={() => void resend.run()}
          >
            Resend
          </button>
        </div>
        <ActionStatus error={resend.error} done={resend.done} />
      </td>
    </tr>
  );
}
