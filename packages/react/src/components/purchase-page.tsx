/**
 * The purchase page a checkout URL opens (`/purchase/<full_code>`): whose
 * product it is, what it costs, and a Buy button. The code is the credential,
 * so the page works for a visitor signed in nowhere. In payments test mode
 * Buy takes the product without paying; otherwise the buyer pays by card
 * (purchase-card-payment.tsx) once the project's Stripe account may charge.
 * A price with amounts in several currencies lets the buyer choose which.
 */
import { defaultChargeCurrency, KnownErrors, priceCurrencies, type Currency, type PurchaseCodeInfo } from "@latchkey/js";
import { useCallback, useEffect, useId, useState } from "react";
import { useStackApp } from "../provider.tsx";
import { Alert, Card, errorText, useAction } from "./parts.tsx";
import { CardPayment } from "./purchase-card-payment.tsx";

export interface PurchasePageProps {
  /** The checkout URL's last path segment. */
  fullCode: string;
  /** Where the visitor goes back to after buying (the checkout URL's `return_url`). */
  returnUrl?: string | undefined;
  fullPage?: boolean;
}

type Price = PurchaseCodeInfo["product"]["prices"][string];
type Interval = NonNullable<Price["interval"]>;

export function PurchasePage({ fullCode, returnUrl, fullPage = true }: PurchasePageProps) {
  const app = useStackApp();
  const [state, setState] = useState<{ info: PurchaseCodeInfo | null; error: string | null; read: boolean }>({
    info: null,
    error: null,
    read: false,
  });
  const read = useCallback(() => {
    app._readPurchaseCode(fullCode, returnUrl).then(
      (info) => setState({ info, error: null, read: true }),
      (error: unknown) =>
        setState({
          info: null,
          read: true,
          error:
            error instanceof KnownErrors.VerificationCodeNotFound
              ? "This purchase link is not valid: it may have expired or been used already. Ask for a new one."
              : errorText(error),
        }),
    );
  }, [app, fullCode, returnUrl]);
  useEffect(read, [read]);

  let content;
  if (!state.read) content = <Card title="Purchase">{<p className="lk-muted">Loading…</p>}</Card>;
  else if (!state.info) content = <Card title="Purchase">{<Alert>{state.error}</Alert>}</Card>;
  else content = <PurchaseForm info={state.info} fullCode={fullCode} returnUrl={returnUrl} />;
  return fullPage ? <div className="lk-full-page">{content}</div> : content;
}

function PurchaseForm({ info, fullCode, returnUrl }: { info: PurchaseCodeInfo; fullCode: string; returnUrl: string | undefined }) {
  const app = useStackApp();
  const priceIds = Object.keys(info.product.prices);
  const [priceId, setPriceId] = useState<string | null>(priceIds[0] ?? null);
  const [quantity, setQuantity] = useState(1);
  const [chosenCurrency, setChosenCurrency] = useState<Currency | null>(null);
  const [bought, setBought] = useState(false);
  // Once a card payment exists for the code, its price, currency and quantity are the ones it charges.
  const [paymentStarted, setPaymentStarted] = useState(false);
  const name = useId();
  const price = priceId === null ? undefined : info.product.prices[priceId];
  const currencies = price ? priceCurrencies(price) : [];
  // A choice the newly selected price has no amount in falls back to that price's default.
  const currency = chosenCurrency !== null && currencies.includes(chosenCurrency) ? chosenCurrency : defaultChargeCurrency(currencies);
  // The currency is only sent when the buyer could choose one.
  const asked = currencies.length > 1 ? currency : undefined;
  const buy = useAction(async () => {
    if (priceId === null) return;
    await app._completeTestModePurchase({ fullCode, priceId, quantity, ...(asked ? { currency: asked } : {}) });
    setBought(true);
  });
  const brand = <PurchaseBrand info={info} />;

  if (bought) {
    return (
      <Card title="Purchase complete" header={brand}>
        <p className="lk-success" role="status">
          {info.product.displayName} is yours{info.product.stackable && quantity > 1 ? ` (${quantity})` : ""}. No payment was taken: this
          project is in test mode.
        </p>
        {returnUrl ? (
          <p>
            <a className="lk-link" href={returnUrl}>
              Return to {new URL(returnUrl).host}
            </a>
          </p>
        ) : null}
      </Card>
    );
  }

  const canBuy = info.testMode && !info.alreadyBoughtNonStackable && priceId !== null;
  if (!info.testMode && !info.chargesEnabled) {
    return (
      <Card title="Payments not enabled" header={brand}>
        <p className="lk-muted" role="note">
          {info.projectDisplayName ?? "This project"} cannot take payments yet: its Stripe account is not set up to charge cards. Nothing
          was bought.
        </p>
      </Card>
    );
  }
  return (
    <Card title={info.product.displayName} header={brand}>
      {priceIds.length === 0 ? <p className="lk-muted">This product has no price to buy it at.</p> : null}
      {priceIds.length === 1 ? (
        <p className="lk-purchase-price">{priceText(info.product.prices[priceIds[0]!]!, info.product.freeTrial)}</p>
      ) : null}
      {priceIds.length > 1 ? (
        <fieldset className="lk-field lk-purchase-prices">
          <legend>Choose a price</legend>
          {priceIds.map((id) => (
            <label key={id} className="lk-list-item">
              <input
                type="radio"
                name={name}
                value={id}
                checked={priceId === id}
                disabled={paymentStarted}
                onChange={() => setPriceId(id)}
              />
              <span>{priceText(info.product.prices[id]!, info.product.freeTrial)}</span>
            </label>
          ))}
        </fieldset>
      ) : null}
      {currencies.length > 1 ? (
        <label className="lk-field">
          Currency
          <select
            className="lk-input"
            value={currency}
            disabled={paymentStarted}
            onChange={(event) => setChosenCurrency(event.target.value as Currency)}
          >
            {currencies.map((code) => (
              <option key={code} value={code}>
                {code}
              </option>
            ))}
          </select>
        </label>
      ) : null}
      {info.product.stackable ? (
        <label className="lk-field">
          Quantity
          <input
            className="lk-input"
            type="number"
            min={1}
            step={1}
            value={quantity}
            disabled={paymentStarted}
            onChange={(event) => setQuantity(Math.max(1, Math.floor(Number(event.target.value)) || 1))}
          />
        </label>
      ) : null}
      {info.conflictingProducts.length > 0 ? (
        <div className="lk-purchase-notice" role="note" aria-label="Plan Change Detected">
          <strong>Plan Change Detected</strong>
          <p className="lk-muted">Buying this replaces {info.conflictingProducts.map((p) => p.displayName).join(", ")}.</p>
        </div>
      ) : null}
      {info.alreadyBoughtNonStackable ? (
        <div className="lk-purchase-notice" role="note" aria-label="Already Purchased">
          <strong>Already Purchased</strong>
          <p className="lk-muted">You already own this product.</p>
        </div>
      ) : null}
      {info.testMode ? (
        <>
          <p className="lk-muted">Test mode: buying takes no payment.</p>
          <Alert>{buy.error}</Alert>
          <div className="lk-actions">
            <button type="button" className="lk-button" disabled={!canBuy || buy.busy} onClick={() => void buy.run()}>
              Buy
            </button>
          </div>
        </>
      ) : price && priceId !== null && currency ? (
        <CardPayment
          fullCode={fullCode}
          returnUrl={returnUrl}
          price={price}
          priceId={priceId}
          currency={currency}
          askCurrency={asked !== undefined}
          quantity={quantity}
          disabled={info.alreadyBoughtNonStackable}
          onStarted={() => setPaymentStarted(true)}
        />
      ) : null}
      {paymentStarted && (priceIds.length > 1 || currencies.length > 1 || info.product.stackable) ? (
        <p className="lk-muted" role="note" aria-label="Payment started">
          This payment was started at the price, currency and quantity above; to change them, start again from the app.
        </p>
      ) : null}
    </Card>
  );
}

function PurchaseBrand({ info }: { info: PurchaseCodeInfo }) {
  if (!info.projectLogoUrl && !info.projectDisplayName) return null;
  return (
    <div className="lk-brand">
      {info.projectLogoUrl ? (
        <img className="lk-brand-mark" src={info.projectLogoUrl} alt={info.projectDisplayName ? "" : "Seller"} />
      ) : null}
      {info.projectDisplayName ? <span className="lk-brand-name">{info.projectDisplayName}</span> : null}
    </div>
  );
}

/** "$10.00 per month, or €9.00 per month · 7-day free trial" */
function priceText(price: Price, productTrial: Interval | null | undefined): string {
  const amounts = priceCurrencies(price).map((code) => money(price[code]!, code));
  const each = price.interval ? ` ${intervalText(price.interval)}` : "";
  const trial = price.free_trial ?? productTrial ?? null;
  const text = amounts.length ? amounts.map((amount) => `${amount}${each}`).join(" or ") : "Free";
  return trial && trial[0] > 0 ? `${text} · ${trial[0]}-${trial[1]} free trial` : text;
}

function money(amount: string, currency: string): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency }).format(Number(amount));
}

function intervalText([count, unit]: Interval): string {
  return count === 1 ? `per ${unit}` : `every ${count} ${unit}s`;
}
