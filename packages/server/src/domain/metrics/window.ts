/**
 * The days the overview covers, from one clock reading: the last
 * METRICS_DAYS UTC days, today included, so every series has the same days.
 */
import { METRICS_DAYS } from "@latchkey/shared";
import { utcDay } from "../users/activity.ts";

const DAY_MILLIS = 86_400_000;

export interface MetricsWindow {
  /** Every day of the series, oldest first, `YYYY-MM-DD`. */
  days: string[];
  first: string;
  today: string;
  /** The first day of the 30 counted as monthly active users (today is the last). */
  monthFirst: string;
}

export function metricsWindow(now: Date): MetricsWindow {
  const days = Array.from({ length: METRICS_DAYS }, (_, i) => utcDay(new Date(now.getTime() - (METRICS_DAYS - 1 - i) * DAY_MILLIS)));
  return { days, first: days[0]!, today: days.at(-1)!, monthFirst: days.at(-30)! };
}
