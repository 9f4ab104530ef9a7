/**
 * Adds or edits an endpoint: its URL, a description, and the events it is sent (every event, or those
 * chosen). What the server refuses is shown beside the field it names, the rest under the form.
 */
import { WEBHOOK_EVENT_TYPES } from "@latchkey/shared";
import { useState, type FormEvent } from "react";
import { useAction } from "../../lib/use-action.ts";
import { Field, Toggle } from "../../ui/field.tsx";
import { ActionStatus } from "../../ui/states.tsx";
import { WebhooksApiError, type EndpointInput, type WebhookEndpoint } from "./webhooks-api.ts";

export function EndpointForm({
  endpoint,
  submitLabel,
  pendingLabel,
  save,
}: {
  /** The endpoint being edited; none when adding one. */
  endpoint?: WebhookEndpoint;
  submitLabel: string;
  pendingLabel: string;
  save: (input: EndpointInput) => Promise<unknown>;
}) {
  const [url, setUrl] = useState(endpoint?.url ?? "");
  const [description, setDescription] = useState(endpoint?.description ?? "");
  const [allEvents, setAllEvents] = useState(!endpoint?.filterTypes);
  const [chosen, setChosen] = useState<string[]>(endpoint?.filterTypes ?? []);
  const [fields, setFields] = useState<Record<string, string>>({});
  const saving = useAction(async () => {
    setFields({});
    try {
      await save({ url: url.trim(), description: description.trim(), filterTypes: allEvents ? null : chosen });
    } catch (error) {
      if (error instanceof WebhooksApiError && Object.keys(error.fields).length > 0) {
        setFields(error.fields);
        throw new Error("Check the fields marked above.", { cause: error });
      }
      throw error;
    }
  });
  const noEvents = !allEvents && chosen.length === 0;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void saving.run();
  };
  const choose = (type: string, on: boolean) => setChosen((list) => (on ? [...list, type] : list.filter((t) => t !== type)));
  // Fields the form has no control for (a key the server names that is not one of these) are said under the form.
  const unplaced = Object.entries(fields).filter(([name]) => !["url", "description", "filterTypes"].includes(name));
  return (
    <form className="form" onSubmit={submit} noValidate>
      <Field label="Endpoint URL" hint="Where each event is POSTed, signed with the endpoint's secret." error={fields.url}>
        {(props) => (
          <input
            {...props}
            className="input mono"
            type="url"
            required
            placeholder="https://app.example.com/webhooks/latchkey"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        )}
      </Field>
      <Field label="Description" hint="Optional: what receives these events." error={fields.description}>
        {(props) => <input {...props} className="input" value={description} onChange={(e) => setDescription(e.target.value)} />}
      </Field>
      <fieldset className="fieldset">
        <legend>Events</legend>
        <Toggle label="All events" hint="Including event types added later." checked={allEvents} onChange={setAllEvents} />
        {allEvents ? null : (
          <div className="webhook-event-types">
            {WEBHOOK_EVENT_TYPES.map((type) => (
              <label key={type} className="webhook-event-type mono small">
                <input type="checkbox" checked={chosen.includes(type)} onChange={(e) => choose(type, e.target.checked)} /> {type}
              </label>
            ))}
          </div>
        )}
        {fields.filterTypes ? <p className="field-error">{fields.filterTypes}</p> : null}
      </fieldset>
      {unplaced.map(([name, message]) => (
        <p key={name} className="field-error">
          {name}: {message}
        </p>
      ))}
      <ActionStatus error={noEvents ? "Choose at least one event, or all events." : saving.error} />
      <div>
        <button type="submit" className="button" disabled={saving.pending || noEvents}>
          {saving.pending ? pendingLabel : submitLabel}
        </button>
      </div>
    </form>
  );
}
