/**
 * Money amounts as the config and the API write them (`"12.5"`, `"1000"`:
 * a currency's units, at most its decimals) in whole minor units (cents),
 * so sums and comparisons are exact.
 */
import { CURRENCIES, type Currency } from "@latchkey/shared";

const AMOUNT = /^(0|[1-9]\d*)(\.\d+)?$/;

/** The amount in minor units, or null when it is not an amount of this currency (format, too many decimals). */
export function toMinorUnits(amount: string, currency: Currency): number | null {
  const match = AMOUNT.exec(amount);
  if (!match) return null;
  const decimals = CURRENCIES[currency];
  const fraction = (match[2] ?? "").slice(1);
  if (fraction.length > decimals) return null;
  return Number(match[1]) * 10 ** decimals + Number(fraction.padEnd(decimals, "0") || "0");
}

/** Minor units back to an amount, without trailing zeros (`1250` USD → `"12.5"`), negative ones with a minus. */
export function fromMinorUnits(units: number, currency: Currency): string {
  const decimals = CURRENCIES[currency];
  const sign = units < 0 ? "-" : "";
  const digits = Math.abs(units)
    .toString()
    .padStart(decimals + 1, "0");
  const whole = decimals === 0 ? digits : digits.slice(0, -decimals);
  const fraction = decimals === 0 ? "" : digits.slice(-decimals).replace(/0+$/, "");
  return `${sign}${whole}${fraction ? `.${fraction}` : ""}`;
}
