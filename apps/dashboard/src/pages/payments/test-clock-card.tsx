/**
 * The payments test clock: in test mode, this project's payments time runs
 * ahead of real time by however far the owner moved it, so they can see a
 * subscription's third month today: renewals, repeated item grants and the
 * ends of cancelled periods come due as the clock passes them. The clock
 * only moves forward; outside test mode payments keep real time.
 */
import type { PaymentsTestClock } from "@latchkey/js";
import { useState } from "react";
import { Link } from "react-router";
import { useAdminApp, useCurrentProject } from "../../lib/owned-projects.tsx";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";
import { Field } from "../../ui/field.tsx";
import { Card } from "../../ui/page.tsx";
import { ActionStatus, Loaded } from "../../ui/states.tsx";
import { CLOCK_UNITS, durationText, moveText, type ClockUnit } from "../../lib/test-clock-units.ts";

const QUICK_MOVES: { label: string; count: number; unit: ClockUnit }[] = [
  { label: "+1 day", count: 1, unit: "day" },
  { label: "+1 week", count: 1, unit: "week" },
  { label: "+1 month", count: 1, unit: "month" },
];

export function TestClockCard({ testMode }: { testMode: boolean }) {
  const app = useAdminApp();
  const project = useCurrentProject();
  // Read again when test mode flips: the clock's time counts its moves only in test mode.
  const clock = useLoad(() => app.getPaymentsTestClock(), [app, testMode]);
  const move = useAction(async (count: number, unit: ClockUnit) => {
    await app.advancePaymentsTestClock(count * CLOCK_UNITS[unit].ms);
    clock.reload();
    return `Moved forward ${moveText(count, unit)}. Renewals, repeated item grants and period ends that came due have been applied.`;
  });
  return (
    <Card
      title="Test clock"
      description="See month three today: move this project's payments time forward to watch subscriptions renew, included items come again and cancelled plans end, without waiting."
    >
      <Loaded load={clock} label="Reading the test clock…">
        {(state) => <ClockFacts clock={state} testMode={testMode} />}
      </Loaded>
      {testMode ? (
        <>
          <div className="clock-moves" role="group" aria-label="Move the clock forward">
            {QUICK_MOVES.map(({ label, count, unit }) => (
              <button
                key={label}
                type="button"
                className="button button-secondary"
                disabled={move.pending}
                onClick={() => void move.run(count, unit)}
              >
                {label}
              </button>
            ))}
          </div>
          <CustomMoveForm pending={move.pending} onMove={(count, unit) => move.run(count, unit)} />
          <ActionStatus error={move.error} done={move.done} />
          {move.done ? (
            <p className="small">
              See what changed on a customer&apos;s page: <Link to={`/projects/${project.id}/users`}>users</Link> or{" "}
              <Link to={`/projects/${project.id}/teams`}>teams</Link>.
            </p>
          ) : null}
          <p className="field-hint">
            The clock only moves forward, and only this project&apos;s payments follow it; a month is 30 days, as periods are counted.
            Turning test mode off returns payments to real time.
          </p>
        </>
      ) : (
        <p className="muted">The test clock works in test mode only. Turn test mode on above to move it.</p>
      )}
    </Card>
  );
}

function ClockFacts({ clock, testMode }: { clock: PaymentsTestClock; testMode: boolean }) {
  const format = new Intl.DateTimeFormat(undefined, { dateStyle: "full", timeStyle: "short" });
  return (
    <dl className="facts" aria-label="Test clock">
      <dt>Payments time</dt>
      <dd>
        <time dateTime={clock.now.toISOString()}>{format.format(clock.now)}</time>
      </dd>
      <dt>Ahead of real time</dt>
      <dd>
        {clock.offsetMillis === 0
          ? "Not moved: real time"
          : testMode
            ? durationText(clock.offsetMillis)
            : `${durationText(clock.offsetMillis)}, counted again when test mode is back on`}
      </dd>
    </dl>
  );
}

function CustomMoveForm({ pending, onMove }: { pending: boolean; onMove: (count: number, unit: ClockUnit) => Promise<boolean> }) {
  const [amount, setAmount] = useState("");
  const [unit, setUnit] = useState<ClockUnit>("day");
  const [invalid, setInvalid] = useState<string | null>(null);
  return (
    <form
      className="clock-custom"
      aria-label="Move the clock by a custom amount"
      onSubmit={(e) => {
        e.preventDefault();
        const text = amount.trim();
        if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > 9999) {
          setInvalid("Give a whole number from 1 to 9999.");
          return;
        }
        setInvalid(null);
        void onMove(Number(text), unit).then((ok) => ok && setAmount(""));
      }}
    >
      <Field label="Amount" error={invalid}>
        {(props) => (
          <input
            {...props}
            className="input mono clock-amount"
            inputMode="numeric"
            placeholder="3"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
          />
        )}
      </Field>
      <Field label="Unit">
        {(props) => (
          <select {...props} className="input" value={unit} onChange={(e) => setUnit(e.target.value as ClockUnit)}>
            {Object.entries(CLOCK_UNITS).map(([id, { plural }]) => (
              <option key={id} value={id}>
                {plural}
              </option>
            ))}
          </select>
        )}
      </Field>
      <button type="submit" className="button" disabled={pending}>
        {pending ? "Moving…" : "Move forward"}
      </button>
    </form>
  );
}
