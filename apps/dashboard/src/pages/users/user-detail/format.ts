/** Dates as the detail page shows them: the owner's locale, date and time. */
export function formatDate(date: Date | undefined | null): string {
  if (!date || Number.isNaN(date.getTime())) return "—";
  return date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}
