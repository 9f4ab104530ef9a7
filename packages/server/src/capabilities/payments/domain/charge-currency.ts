/**
 * Which currency a purchase is charged in, and how much. A price may carry
 * amounts in several currencies: the buyer may choose one of them on the
 * purchase page; otherwise USD when the price has it (as every price was
 * charged before other currencies could be), else the price's first
 * currency. Amounts go to Stripe in the currency's minor units (cents; yen
 * have none).
 */
import { CURRENCY_CODES, defaultChargeCurrency, KnownErrors, priceCurrencies, StatusError, type Currency } from "@latchkey/shared";
import { toMinorUnits } from "./money.ts";
import type { ProductPrice } from "./product-snapshot.ts";

/** The currency to charge the price in: the one asked for (a schema error when the price has none in it), else the default. */
export function chargeCurrency(price: ProductPrice, asked: Currency | undefined): Currency {
  const offered = priceCurrencies(price);
  if (asked !== undefined) {
    if (!offered.includes(asked)) {
      throw new KnownErrors.SchemaError(`This price has no ${asked} amount; it can be paid in ${offered.join(", ")}.`);
    }
    return asked;
  }
  const charged = defaultChargeCurrency(offered);
  if (!charged) throw new StatusError(400, "This price has no amount to charge");
  return charged;
}

/** The price's amount in `currency`, in minor units; a 400 when it has none. */
export function unitAmountIn(price: ProductPrice, currency: Currency): number {
  const amount = price[currency];
  const units = typeof amount === "string" ? toMinorUnits(amount, currency) : null;
  if (units === null) throw new StatusError(400, `This price has no ${currency} amount to charge`);
  return units;
}

/** How Stripe names a currency. */
export function stripeCurrency(currency: Currency): string {
  return currency.toLowerCase();
}

/** A currency Stripe named, if it is one prices can be in. */
export function currencyOfStripe(name: string): Currency | null {
  const upper = name.toUpperCase();
  return CURRENCY_CODES.find((currency) => currency === upper) ?? null;
}
