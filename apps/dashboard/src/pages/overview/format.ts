/** Words and numbers of the overview, in the owner's locale; days are UTC days, as the server counts them. */
const number = new Intl.NumberFormat();
const shortDay = new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
const longDay = new Intl.DateTimeFormat(undefined, { weekday: "short", month: "long", day: "numeric", year: "numeric", timeZone: "UTC" });
const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });

export const formatCount = (n: number) => number.format(n);

const utcDay = (date: string) => new Date(`${date}T00:00:00Z`);
/** "Nov 24" for an axis tick. */
export const formatShortDay = (date: string) => shortDay.format(utcDay(date));
/** "Tue, November 24, 2026" for a tooltip or a table row. */
export const formatLongDay = (date: string) => longDay.format(utcDay(date));

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 30],
  ["month", 12],
  ["year", Infinity],
];

/** "3 minutes ago", "yesterday". */
export function formatAgo(date: Date, now = Date.now()): string {
  let value = (date.getTime() - now) / 1000;
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return relative.format(Math.round(value), unit);
    value /= size;
  }
  return relative.format(Math.round(value), "year");
}

let regions: Intl.DisplayNames | null = null;
/** "France" for "FR"; the code itself when the browser has no name for it. */
export function countryName(code: string): string {
  regions ??= new Intl.DisplayNames(undefined, { type: "region" });
  try {
    return regions.of(code.toUpperCase()) ?? code;
  } catch {
    return code;
  }
}
