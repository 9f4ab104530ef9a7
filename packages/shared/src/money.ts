/**
 * Money and billing intervals as the payments catalogue and the API write
 * them: an amount is a decimal string in a currency's units (CURRENCIES),
 * with no more decimals than the currency has; an interval is a count and a
 * unit. One definition, for the config's prices and for inline products.
 */
import { z } from "zod";
import { CURRENCIES, type Currency } from "./constants.ts";

export const CURRENCY_CODES = Object.keys(CURRENCIES) as Currency[];

/** The currencies a price has an amount in, in the catalogue's order of currencies. */
export function priceCurrencies(price: Partial<Record<Currency, unknown>>): Currency[] {
  return CURRENCY_CODES.filter((currency) => typeof price[currency] === "string");
}

/**
 * The currency a price is charged in when the buyer names none: USD when it has a USD amount (as every price was
 * charged before other currencies could be), else its first currency. The server charges it; the purchase page
 * shows it first.
 */
export function defaultChargeCurrency(currencies: readonly Currency[]): Currency | undefined {
  return currencies.includes("USD") ? "USD" : currencies[0];
}

/** `[count, unit]`: a subscription's period, a free trial, how often included items are granted again. */
export const PAYMENT_INTERVAL_UNITS = ["day", "week", "month", "year"] as const;
export const paymentIntervalSchema = z.tuple([z.number().int().min(0), z.enum(PAYMENT_INTERVAL_UNITS)]);
export type PaymentInterval = z.infer<typeof paymentIntervalSchema>;

/**
 * An amount in the currency `code`: digits with an optional fraction, no longer than the currency's. The checks
 * run in this order, each with its own message, which the API answers with as written
 * (packages/shared/test/config-payments.test.ts).
 */
export function moneyAmountSchema(code: Currency) {
  const decimals = CURRENCIES[code];
  return z.string().superRefine((value, ctx) => {
    const match = /^(\d+)(?:\.(\d+))?$/.exec(value);
    if (!match) ctx.addIssue({ code: "custom", message: "Money amount must be in the format of <number> or <number>.<number>" });
    else if ((match[2]?.length ?? 0) > decimals) {
      ctx.addIssue({ code: "custom", message: `Too many decimals; ${code} only has ${decimals} decimals` });
    } else if (match[1] !== "0" && match[1]!.startsWith("0")) {
      ctx.addIssue({ code: "custom", message: "Money amount must not have leading zeros" });
    }
  });
}

/** An amount for each currency, each optional: the currency fields of a price. */
export const currencyAmountsShape = Object.fromEntries(CURRENCY_CODES.map((code) => [code, moneyAmountSchema(code).optional()])) as Record<
  Currency,
  z.ZodOptional<z.ZodString>
>;
