/** Parses `60s`, `10m`, `2h`, `1d`, `500ms` or a bare number of milliseconds. */
export function parseDuration(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?\s*$/.exec(text);
  if (!match) throw new Error(`Not a duration: ${JSON.stringify(text)} (use e.g. 60s, 10m, 1h)`);
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[match[2] ?? "ms"]!;
  return Math.round(Number(match[1]) * unit);
}
