/**
 * The units the test clock moves by, as the server counts periods (a month
 * is 30 days), and how far it has moved in words.
 */

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

export const CLOCK_UNITS = {
  hour: { ms: HOUR_MS, singular: "hour", plural: "hours" },
  day: { ms: DAY_MS, singular: "day", plural: "days" },
  week: { ms: 7 * DAY_MS, singular: "week", plural: "weeks" },
  month: { ms: 30 * DAY_MS, singular: "month", plural: "months" },
} as const;

export type ClockUnit = keyof typeof CLOCK_UNITS;

/** "1 day", "3 weeks". */
export function moveText(count: number, unit: ClockUnit): string {
  const { singular, plural } = CLOCK_UNITS[unit];
  return `${count} ${count === 1 ? singular : plural}`;
}

/** A clock's offset as days and hours ("31 days", "2 days 5 hours", "under an hour"). */
export function durationText(ms: number): string {
  const days = Math.floor(ms / DAY_MS);
  const hours = Math.floor((ms % DAY_MS) / HOUR_MS);
  const parts = [days > 0 ? moveText(days, "day") : "", hours > 0 ? moveText(hours, "hour") : ""].filter(Boolean);
  return parts.length > 0 ? parts.join(" ") : "under an hour";
}
