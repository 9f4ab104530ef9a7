/**
 * One series of 31 UTC days as a chart, with the same numbers in a visually
 * hidden table for screen readers (the drawing itself is hidden from them).
 */
import type { MetricsDataPoint } from "@latchkey/js";
import { lazy, Suspense, useId } from "react";
import { formatLongDay } from "./format.ts";

// The charting library is most of the page's weight: the numbers show first, the drawing when it arrives.
const DailyDrawing = lazy(() => import("./charts.tsx").then((m) => ({ default: m.DailyDrawing })));

export function DailyChart({
  title,
  summary,
  unit,
  data,
  kind,
}: {
  title: string;
  /** One sentence with the numbers that matter, shown under the title. */
  summary: string;
  /** What a day counts, as a column heading ("Sign-ups"). */
  unit: string;
  data: MetricsDataPoint[];
  kind: "bar" | "area";
}) {
  const id = useId();
  return (
    <figure className="overview-chart" aria-labelledby={`${id}-title`}>
      <figcaption>
        <h2 id={`${id}-title`}>{title}</h2>
        <p className="muted">{summary}</p>
      </figcaption>
      <div className="overview-chart-drawing" aria-hidden="true">
        <Suspense fallback={null}>
          <DailyDrawing data={data} unit={unit} kind={kind} />
        </Suspense>
      </div>
      <table className="visually-hidden">
        <caption>{title}, per day (UTC)</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">{unit}</th>
          </tr>
        </thead>
        <tbody>
          {data.map((point) => (
            <tr key={point.date}>
              <th scope="row">
                <time dateTime={point.date}>{formatLongDay(point.date)}</time>
              </th>
              <td>{point.activity}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
