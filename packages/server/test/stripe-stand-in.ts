/**
 * A stand-in for Stripe's API on loopback (127.0.0.1, any free port), for the
 * few calls the server makes through the `stripe` package pointed at it
 * (LATCHKEY_STRIPE_API_URL): connected accounts and their onboarding links,
 * reading an account (a connected one by id, or a key's own), and embedded
 * component sessions. It answers in Stripe's JSON shapes and with Stripe's
 * errors (401 for an unknown key, 404 for an unknown account) and idempotency
 * keys (a key seen before answers as it did then), records every
 * request, and lets a test change an account as Stripe would (onboarding
 * finished) or take the API down. For purchases: customers, products,
 * payment intents and incomplete subscriptions (their first invoice's
 * confirmation secret expanded), on the key's own account or, for the
 * platform, the connected account of the Stripe-Account header; what was
 * made is kept (`paymentIntents`, `subscriptions`) for tests to build the
 * events Stripe would send about it. `signedDelivery` signs a webhook event as
 * Stripe signs it, with the `stripe` package's own helper.
 */
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { standInBilling, type StandInBilling } from "./stripe-stand-in-billing.ts";

export interface StripeStandInRequest {
  method: string;
  path: string;
  /** The bearer key the request was made with. */
  apiKey: string | null;
  /** The form the package sent, flattened as sent (`metadata[k]`, `components[payments][enabled]`). */
  form: Record<string, string>;
  /** The Stripe-Account header: the connected account a platform request acts on. */
  stripeAccount: string | null;
}

/** A subscription's invoice, with the payment intent that paid it and what it paid (minor units). */
export interface StandInInvoice {
  account: string;
  subscription: string;
  paymentIntent: string;
  amount: number;
}

/** A payment intent or subscription the stand-in made, with the account it is on. */
export interface StandInObject {
  account: string;
  json: Record<string, unknown> & { id: string; metadata: Record<string, string> };
}

export interface StandInAccount {
  id: string;
  object: "account";
  type: "custom" | "standard";
  charges_enabled: boolean;
  details_submitted: boolean;
  payouts_enabled: boolean;
  metadata: Record<string, string>;
  created: number;
}

export interface StripeStandIn {
  /** The origin to configure (LATCHKEY_STRIPE_API_URL). */
  url: string;
  /** The platform account's secret key, which the stand-in accepts. */
  platformKey: string;
  received: StripeStandInRequest[];
  accounts: Map<string, StandInAccount>;
  paymentIntents: Map<string, StandInObject>;
  subscriptions: Map<string, StandInObject>;
  customers: Map<string, StandInObject>;
  /** Subscriptions' invoices by id: a subscription's first is made with it, a renewal by `renewInvoice`. */
  invoices: Map<string, StandInInvoice>;
  /** Stripe invoicing a subscription's next period (paid at once, by a new payment intent); answers the invoice's id. */
  renewInvoice(subscriptionId: string): string;
  /** Refunds made (POST /v1/refunds), in order. */
  refunds: { account: string; paymentIntent: string; amount: number; metadata: Record<string, string> }[];
  /** Saves a card as the customer's default for invoices (as the customer would on a billing page); returns its id. */
  saveDefaultCard(customerId: string): string;
  /** While true, every charge to a saved card is declined (402 card_error), as a card past its limit would be. */
  declineCards: boolean;
  /** A new account reached with its own secret key (a self-hoster's); returns its keys and the account. */
  addOwnAccount(changes?: Partial<StandInAccount>): { secretKey: string; publishableKey: string; account: StandInAccount };
  /** Changes an account as Stripe would (onboarding went on, charges enabled). */
  updateAccount(id: string, changes: Partial<StandInAccount>): StandInAccount;
  /** While true, every request is answered 500 as an outage would be. */
  down: boolean;
  /** Saving cards: SetupIntents, a customer's cards (stripe-stand-in-billing.ts). */
  billing: StandInBilling;
  close(): Promise<void>;
  /** Refunds as Stripe's events tell of them (see the block at the end of this file). */
  refundEvents: StandInRefundEvents;
  // --- Card payments in the browser (Stripe.js's calls; see cardPaymentRoutes below) ---
  /** The platform's publishable key, which Stripe.js's calls carry (with the Stripe-Account header). */
  platformPublishableKey: string;
}

const id = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;

function stripeError(status: number, type: string, message: string, extra: Record<string, string> = {}) {
  return { status, json: { error: { type, message, ...extra } } };
}

export async function startStripeStandIn(): Promise<StripeStandIn> {
  const platformKey = `sk_test_platform${randomBytes(8).toString("hex")}`;
  const accounts = new Map<string, StandInAccount>();
  /** Secret key → the account it belongs to (the platform's own is not needed by the server). */
  const ownKeys = new Map<string, string>();
  /** An own account's publishable key → that account. */
  const ownPublishableKeys = new Map<string, string>();
  /** The account a Stripe.js request acts on: its own key's, or for the platform's key, the one it names; else none. */
  const publishableKeyAccount = (request: StripeStandInRequest): string | null => {
    if (request.apiKey === standIn.platformPublishableKey) return request.stripeAccount;
    return (request.apiKey && ownPublishableKeys.get(request.apiKey)) ?? null;
  };
  const now = () => Math.floor(Date.now() / 1000);
  const newAccount = (changes: Partial<StandInAccount> = {}): StandInAccount => {
    const account: StandInAccount = {
      id: id("acct"),
      object: "account",
      type: "custom",
      charges_enabled: false,
      details_submitted: false,
      payouts_enabled: false,
      metadata: {},
      created: now(),
      ...changes,
    };
    accounts.set(account.id, account);
    return account;
  };

  const platformAccount = newAccount({ type: "standard", charges_enabled: true, details_submitted: true, payouts_enabled: true });
  const answer = (request: StripeStandInRequest): { status: number; json: unknown } => {
    if (standIn.down) return stripeError(500, "api_error", "An unknown error occurred");
    const fromStripeJs = cardPaymentRoutes(request, standIn, paymentIntents);
    if (fromStripeJs) return fromStripeJs;
    const fromSetupForm = billingCalls.confirmFromStripeJs(request, publishableKeyAccount(request));
    if (fromSetupForm) return fromSetupForm;
    const key = request.apiKey;
    const isPlatform = key === platformKey;
    const ownAccount = key ? ownKeys.get(key) : undefined;
    if (!isPlatform && !ownAccount)
      return stripeError(401, "invalid_request_error", `Invalid API Key provided: ${(key ?? "").slice(0, 8)}****`);
    const { method, path, form } = request;
    if (method === "GET" && path === "/v1/account") return { status: 200, json: ownAccount ? accounts.get(ownAccount) : platformAccount };
    if (method === "POST" && ["/v1/customers", "/v1/products", "/v1/payment_intents", "/v1/subscriptions"].includes(path)) {
      const on = isPlatform ? request.stripeAccount : ownAccount!;
      if (!on || !accounts.has(on)) return stripeError(400, "invalid_request_error", `No such account: '${on}'`, { param: "account" });
      if (path === "/v1/subscriptions" && form.payment_behavior === "error_if_incomplete" && standIn.declineCards) return cardDeclined();
      return { status: 200, json: purchaseObject(on, path, form) };
    }
    if (method === "GET" && path === "/v1/invoice_payments") {
      // By invoice, or by the payment intent that paid one; on the account the request acts on.
      const on = isPlatform ? request.stripeAccount : ownAccount!;
      const byIntent = form["payment[payment_intent]"];
      const data = [...invoices]
        .filter(
          ([invoiceId, paid]) =>
            paid.account === on && (byIntent === undefined ? invoiceId === form.invoice : paid.paymentIntent === byIntent),
        )
        .map(([invoiceId, paid]) => invoicePayment(invoiceId, paid.paymentIntent));
      return { status: 200, json: { object: "list", data, has_more: false, url: "/v1/invoice_payments" } };
    }
    if (method === "POST" && path === "/v1/refunds") {
      const on = isPlatform ? request.stripeAccount : ownAccount!;
      const intent = form.payment_intent ?? "";
      const known = paymentIntents.get(intent)?.account ?? [...invoices.values()].find((i) => i.paymentIntent === intent)?.account;
      if (!known || known !== on)
        return stripeError(404, "invalid_request_error", `No such payment_intent: '${intent}'`, {
          code: "resource_missing",
          param: "payment_intent",
        });
      const refund = { account: on!, paymentIntent: intent, amount: Number(form.amount), metadata: metadataOf(form) };
      const paid = paidAmount(intent);
      const before = standIn.refunds.filter((r) => r.paymentIntent === intent).reduce((sum, r) => sum + r.amount, 0);
      if (typeof paid === "number" && before + refund.amount > paid)
        return stripeError(
          400,
          "invalid_request_error",
          `Refund amount ($${refund.amount / 100}) is greater than unrefunded amount on charge ($${(paid - before) / 100})`,
          { param: "amount" },
        );
      standIn.refunds.push(refund);
      return { status: 200, json: standIn.refundEvents.record(refund) };
    }
    // Billing: SetupIntents and saved cards (stripe-stand-in-billing.ts).
    const billed = billingCalls.answer(request, isPlatform ? (request.stripeAccount ?? undefined) : ownAccount);
    if (billed) return billed;
    const objectPath = /^\/v1\/(customers|subscriptions)\/([^/]+)$/.exec(path);
    if (objectPath) {
      const on = isPlatform ? request.stripeAccount : ownAccount!;
      const kind = objectPath[1] as "customers" | "subscriptions";
      const found = (kind === "customers" ? customers : subscriptions).get(decodeURIComponent(objectPath[2]!));
      if (!found || found.account !== on)
        return stripeError(404, "invalid_request_error", `No such ${kind.slice(0, -1)}: '${objectPath[2]}'`, { code: "resource_missing" });
      if (method === "GET") {
        // Expanded as asked: a subscription's saved card as its object, not its id.
        const method = found.json.default_payment_method;
        const expand = Object.entries(form).some(([k, v]) => k.startsWith("expand[") && v === "default_payment_method");
        return {
          status: 200,
          json: expand && typeof method === "string" ? { ...found.json, default_payment_method: card(method) } : found.json,
        };
      }
      if (method === "POST" && kind === "subscriptions") {
        if (form.payment_behavior === "error_if_incomplete" && standIn.declineCards) return cardDeclined();
        return { status: 200, json: updateSubscription(found.json, form) };
      }
    }
    // The rest are Connect calls: only the platform makes them.
    if (!isPlatform) return stripeError(403, "invalid_request_error", "This key cannot make Connect requests.");
    if (method === "POST" && path === "/v1/accounts") {
      const metadata = Object.fromEntries(
        Object.entries(form).flatMap(([k, v]) => {
          const m = /^metadata\[(.+)\]$/.exec(k);
          return m ? [[m[1]!, v]] : [];
        }),
      );
      return { status: 200, json: newAccount({ metadata }) };
    }
    const byId = /^\/v1\/accounts\/([^/]+)$/.exec(path);
    if (method === "GET" && byId) {
      const account = accounts.get(decodeURIComponent(byId[1]!));
      return account
        ? { status: 200, json: account }
        : stripeError(404, "invalid_request_error", `No such account: '${byId[1]}'`, { code: "resource_missing", param: "account" });
    }
    if (method === "POST" && (path === "/v1/account_links" || path === "/v1/account_sessions")) {
      const account = accounts.get(form.account ?? "");
      if (!account) return stripeError(400, "invalid_request_error", `No such account: '${form.account}'`, { param: "account" });
      if (path === "/v1/account_links") {
        return {
          status: 200,
          json: {
            object: "account_link",
            created: now(),
            expires_at: now() + 300,
            url: `https://connect.stripe.test/setup/s/${account.id}/${randomBytes(8).toString("hex")}`,
          },
        };
      }
      return {
        status: 200,
        json: {
          object: "account_session",
          account: account.id,
          client_secret: `accs_secret__${randomBytes(16).toString("hex")}`,
          expires_at: now() + 1800,
          livemode: false,
          components: {},
        },
      };
    }
    return stripeError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${path}).`);
  };

  const paymentIntents = new Map<string, StandInObject>();
  const subscriptions = new Map<string, StandInObject>();
  const customers = new Map<string, StandInObject>();
  const billingCalls = standInBilling(customers);
  /** Subscriptions' invoices, each paid by its own payment intent (the stand-in counts every invoice as paid). */
  const invoices = new Map<string, StandInInvoice>();
  const invoicePayment = (invoiceId: string, paymentIntent: string) => ({
    id: id("inpay"),
    object: "invoice_payment",
    invoice: invoiceId,
    status: "paid",
    payment: { type: "payment_intent", payment_intent: paymentIntent },
  });
  /** What a payment intent paid, whether a one-time payment's or an invoice's; undefined for one it never made. */
  const paidAmount = (intent: string): number | undefined =>
    (paymentIntents.get(intent)?.json.amount as number | undefined) ??
    [...invoices.values()].find((i) => i.paymentIntent === intent)?.amount;
  const cardDeclined = () =>
    stripeError(402, "card_error", "Your card was declined.", { code: "card_declined", decline_code: "insufficient_funds" });
  const card = (cardId: string) => ({ id: cardId, object: "payment_method", type: "card", card: { brand: "visa", last4: "4242" } });
  /** A subscription's items moved to another price and quantity, as `subscriptions.update` asks. */
  const updateSubscription = (json: StandInObject["json"], form: Record<string, string>) => {
    const items = (json.items as { data: Record<string, unknown>[] }).data;
    const item = items.find((candidate) => candidate.id === form["items[0][id]"]) ?? items[0]!;
    if (form["items[0][quantity]"] !== undefined) item.quantity = Number(form["items[0][quantity]"]);
    if (form["items[0][price_data][unit_amount]"] !== undefined) {
      item.price = {
        object: "price",
        currency: form["items[0][price_data][currency]"],
        unit_amount: Number(form["items[0][price_data][unit_amount]"]),
        product: form["items[0][price_data][product]"],
        recurring: {
          interval: form["items[0][price_data][recurring][interval]"],
          interval_count: Number(form["items[0][price_data][recurring][interval_count]"] ?? 1),
        },
      };
    }
    if (form.default_payment_method !== undefined) json.default_payment_method = form.default_payment_method;
    if (form.cancel_at_period_end !== undefined) json.cancel_at_period_end = form.cancel_at_period_end === "true";
    Object.assign(json.metadata, metadataOf(form));
    return json;
  };
  const metadataOf = (form: Record<string, string>) =>
    Object.fromEntries(
      Object.entries(form).flatMap(([k, v]) => {
        const m = /^metadata\[(.+)\]$/.exec(k);
        return m ? [[m[1]!, v]] : [];
      }),
    );
  const UNIT_SECONDS: Record<string, number> = { day: 86400, week: 7 * 86400, month: 30 * 86400, year: 365 * 86400 };
  const purchaseObject = (account: string, path: string, form: Record<string, string>): Record<string, unknown> => {
    const metadata = metadataOf(form);
    if (path === "/v1/customers") {
      const json = { id: id("cus"), object: "customer", metadata, created: now(), invoice_settings: { default_payment_method: null } };
      customers.set(json.id, { account, json });
      return json;
    }
    if (path === "/v1/products") return { id: id("prod"), object: "product", name: form.name, metadata, created: now() };
    if (path === "/v1/payment_intents") {
      const intentId = id("pi");
      const json = {
        id: intentId,
        object: "payment_intent",
        amount: Number(form.amount),
        currency: form.currency,
        customer: form.customer,
        metadata,
        status: "requires_payment_method",
        client_secret: `${intentId}_secret_${randomBytes(12).toString("hex")}`,
        created: now(),
      };
      paymentIntents.set(intentId, { account, json });
      return json;
    }
    const subscriptionId = id("sub");
    const start = now();
    const unit = form["items[0][price_data][recurring][interval]"] ?? "month";
    const end = start + Number(form["items[0][price_data][recurring][interval_count]"] ?? 1) * (UNIT_SECONDS[unit] ?? 0);
    const invoiceId = id("in");
    const amount = Number(form["items[0][price_data][unit_amount]"]) * Number(form["items[0][quantity]"] ?? 1);
    invoices.set(invoiceId, { account, subscription: subscriptionId, paymentIntent: id("pi"), amount });
    const json = {
      id: subscriptionId,
      object: "subscription",
      customer: form.customer,
      // Charged to a saved card at once (error_if_incomplete), it is active; else it waits for its first invoice.
      status: form.payment_behavior === "error_if_incomplete" && form.default_payment_method ? "active" : "incomplete",
      default_payment_method: form.default_payment_method ?? null,
      cancel_at_period_end: false,
      cancel_at: null,
      ended_at: null,
      metadata,
      created: start,
      items: {
        object: "list",
        data: [
          {
            id: id("si"),
            object: "subscription_item",
            quantity: Number(form["items[0][quantity]"] ?? 1),
            current_period_start: start,
            current_period_end: end,
            price: {
              object: "price",
              currency: form["items[0][price_data][currency]"],
              unit_amount: Number(form["items[0][price_data][unit_amount]"]),
              product: form["items[0][price_data][product]"],
              recurring: { interval: unit, interval_count: Number(form["items[0][price_data][recurring][interval_count]"] ?? 1) },
            },
          },
        ],
      },
      latest_invoice: invoiceId,
    };
    subscriptions.set(subscriptionId, { account, json });
    const expanded = Object.entries(form).some(([k, v]) => k.startsWith("expand[") && v === "latest_invoice.confirmation_secret");
    return expanded
      ? {
          ...json,
          latest_invoice: {
            id: invoiceId,
            object: "invoice",
            status: "open",
            confirmation_secret: { type: "payment_intent", client_secret: `pi_${randomBytes(12).toString("hex")}_secret_x` },
          },
        }
      : json;
  };

  const idempotent = new Map<string, { status: number; json: unknown; raw: string }>();
  const server = createServer((req, res) => {
    let raw = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => (raw += chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://stand-in");
      const form = Object.fromEntries(new URLSearchParams(req.method === "GET" ? url.search : raw));
      const auth = req.headers.authorization ?? "";
      const request: StripeStandInRequest = {
        method: req.method ?? "",
        path: url.pathname,
        apiKey: auth.startsWith("Bearer ") ? auth.slice("Bearer ".length) : null,
        form,
        stripeAccount: typeof req.headers["stripe-account"] === "string" ? req.headers["stripe-account"] : null,
      };
      standIn.received.push(request);
      // Stripe's idempotency: a key seen before (from the same caller) answers what it answered then; the same key
      // with other parameters is refused, as Stripe refuses it. A refused request is not kept (Stripe keeps no
      // result for a request that failed its checks), so it may be made again.
      const idempotencyKey = req.method === "POST" ? req.headers["idempotency-key"] : undefined;
      const keyOf = `${request.apiKey} ${request.stripeAccount} ${idempotencyKey}`;
      const remembered = typeof idempotencyKey === "string" ? idempotent.get(keyOf) : undefined;
      const sameRequest = remembered !== undefined && remembered.raw === `${request.path} ${raw}`;
      const { status, json } = !remembered
        ? answer(request)
        : sameRequest
          ? remembered
          : stripeError(
              400,
              "idempotency_error",
              "Keys for idempotent requests can only be used with the same parameters they were first used with.",
            );
      if (typeof idempotencyKey === "string" && !remembered && status < 400)
        idempotent.set(keyOf, { status, json, raw: `${request.path} ${raw}` });
      void standIn.refundEvents.beforeAnswer(request, status, json).then(() => {
        res.writeHead(status, { "content-type": "application/json", "request-id": id("req") });
        res.end(JSON.stringify(json));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  const standIn: StripeStandIn = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    platformKey,
    platformPublishableKey: `pk_test_platform${randomBytes(8).toString("hex")}`,
    received: [],
    accounts,
    paymentIntents,
    subscriptions,
    customers,
    invoices,
    renewInvoice(subscriptionId) {
      const sub = subscriptions.get(subscriptionId);
      const first = [...invoices.values()].find((i) => i.subscription === subscriptionId);
      if (!sub || !first) throw new Error(`The stand-in has no subscription ${subscriptionId}`);
      const invoiceId = id("in");
      invoices.set(invoiceId, { ...first, paymentIntent: id("pi") });
      sub.json.latest_invoice = invoiceId;
      return invoiceId;
    },
    refunds: [],
    down: false,
    billing: billingCalls.billing,
    declineCards: false,
    refundEvents: refundEvents(() => standIn),
    saveDefaultCard(customerId) {
      const customer = customers.get(customerId);
      if (!customer) throw new Error(`The stand-in has no customer ${customerId}`);
      const saved = card(id("pm"));
      customer.json.invoice_settings = { default_payment_method: saved };
      return saved.id;
    },
    addOwnAccount(changes) {
      const account = newAccount({ type: "standard", ...changes });
      const secretKey = `sk_test_own${randomBytes(12).toString("hex")}`;
      const publishableKey = `pk_test_own${randomBytes(12).toString("hex")}`;
      ownKeys.set(secretKey, account.id);
      ownPublishableKeys.set(publishableKey, account.id);
      return { secretKey, publishableKey, account };
    },
    updateAccount(accountId, changes) {
      const account = accounts.get(accountId);
      if (!account) throw new Error(`The stand-in has no account ${accountId}`);
      Object.assign(account, changes);
      return account;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return standIn;
}

// --- Card payments in the browser -------------------------------------------------------------------------
// What Stripe.js asks of the API with a publishable key while a buyer pays on the purchase page: confirming a
// payment intent with its client secret, and reading it back on the return page. A browser test forwards
// Stripe.js's requests (to https://api.stripe.com) here. The payment method `pm_card_visa` pays;
// `pm_card_chargeDeclined` is declined, as Stripe's test cards are.

/** Test payment methods a confirmation may name: the first pays, the second is declined. */
export const STAND_IN_CARDS = { pays: "pm_card_visa", declined: "pm_card_chargeDeclined" } as const;

function cardPaymentRoutes(
  request: StripeStandInRequest,
  standIn: StripeStandIn,
  paymentIntents: Map<string, StandInObject>,
): { status: number; json: unknown } | null {
  const match = /^\/v1\/payment_intents\/([^/]+)(\/confirm)?$/.exec(request.path);
  if (!match || request.apiKey !== standIn.platformPublishableKey) return null;
  const intent = paymentIntents.get(decodeURIComponent(match[1]!));
  const json = intent?.json as (StandInObject["json"] & { client_secret: string; status: string }) | undefined;
  // Stripe answers a publishable key only about an intent whose client secret it is shown, on its account.
  if (!intent || !json || json.client_secret !== request.form.client_secret || intent.account !== request.stripeAccount)
    return stripeError(404, "invalid_request_error", `No such payment_intent: '${match[1]}'`, { code: "resource_missing" });
  if (request.method === "GET" && !match[2]) return { status: 200, json };
  if (request.method !== "POST" || !match[2]) return null;
  if (json.status === "succeeded")
    return stripeError(400, "invalid_request_error", "This PaymentIntent has already succeeded.", {
      code: "payment_intent_unexpected_state",
    });
  if (request.form.payment_method === STAND_IN_CARDS.declined) {
    const declined = { type: "card_error", code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." };
    Object.assign(json, { status: "requires_payment_method", last_payment_error: declined });
    return { status: 402, json: { error: { ...declined, payment_intent: json } } };
  }
  Object.assign(json, {
    status: "succeeded",
    payment_method: request.form.payment_method ?? STAND_IN_CARDS.pays,
    last_payment_error: null,
  });
  return { status: 200, json };
}

/** An event as Stripe delivers it; `account` for an event about a connected account (Connect). */
export function stripeEvent(type: string, object: unknown, account?: string): Record<string, unknown> {
  return {
    id: id("evt"),
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object },
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    ...(account ? { account } : {}),
  };
}

/**
 * The body and Stripe-Signature header of a delivery of `event`, signed with `secret` at `atMillis` (the
 * server's clock) exactly as Stripe signs: HMAC-SHA256 over `<timestamp>.<body>`, by the `stripe` package.
 */
export function signedDelivery(event: unknown, secret: string, atMillis: number): { body: string; signature: string } {
  const body = JSON.stringify(event, null, 2);
  const signature = Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: Math.floor(atMillis / 1000) });
  return { body, signature };
}

// ---------------------------------------------------------------------------------------------------------------
// Refunds as Stripe's events tell of them: each refund the stand-in makes is kept whole (its id is what
// refund.created and charge.refunded carry), a refund can be made as Stripe's dashboard makes one (no call from
// the server), and a test may run something (deliver the refund's events, say) after Stripe made a refund and
// before the server hears the answer.
// ---------------------------------------------------------------------------------------------------------------

/** A refund as Stripe's API and events show it. */
export interface StandInRefund {
  id: string;
  object: "refund";
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  status: string;
  metadata: Record<string, string>;
  created: number;
}

export interface StandInRefundEvents {
  /** Every refund made, by the API or as the dashboard makes one, in order. */
  all: StandInRefund[];
  /** Keeps a refund just made (in `refunds`) whole; answers it as Stripe does. */
  record(refund: StripeStandIn["refunds"][number]): StandInRefund;
  /**
   * Refunds `amount` of a payment intent as Stripe's dashboard does (the server is not asked); refused, as
   * Stripe refuses, above what is left of the payment.
   */
  dashboardRefund(account: string, paymentIntent: string, amount: number): StandInRefund;
  /** Run once the next refund is made and before its answer is sent (then forgotten). */
  onNextRefund: ((refund: StandInRefund) => Promise<void>) | null;
  /** Holds the answer to a refund until `onNextRefund` is done. */
  beforeAnswer(request: StripeStandInRequest, status: number, json: unknown): Promise<void>;
}

function refundEvents(standIn: () => StripeStandIn): StandInRefundEvents {
  const events: StandInRefundEvents = {
    all: [],
    record(refund) {
      const json: StandInRefund = {
        id: id("re"),
        object: "refund",
        amount: refund.amount,
        currency: (standIn().paymentIntents.get(refund.paymentIntent)?.json.currency as string | undefined) ?? "usd",
        charge: `ch_${refund.paymentIntent.slice(3)}`,
        payment_intent: refund.paymentIntent,
        status: "succeeded",
        metadata: refund.metadata,
        created: Math.floor(Date.now() / 1000),
      };
      events.all.push(json);
      return json;
    },
    onNextRefund: null,
    dashboardRefund(account, paymentIntent, amount) {
      const paid =
        standIn().paymentIntents.get(paymentIntent)?.json.amount ??
        [...standIn().invoices.values()].find((i) => i.paymentIntent === paymentIntent)?.amount;
      const before = standIn()
        .refunds.filter((r) => r.paymentIntent === paymentIntent)
        .reduce((sum, r) => sum + r.amount, 0);
      if (typeof paid !== "number" || before + amount > paid) throw new Error(`The stand-in cannot refund ${amount} of ${paymentIntent}`);
      const refund = { account, paymentIntent, amount, metadata: {} };
      standIn().refunds.push(refund);
      return events.record(refund);
    },
    async beforeAnswer(request, status, json) {
      const hook = events.onNextRefund;
      if (!hook || request.method !== "POST" || request.path !== "/v1/refunds" || status !== 200) return;
      events.onNextRefund = null;
      await hook(json as StandInRefund);
    },
  };
  return events;
}

/** The refund.created event of a refund. */
export function refundCreatedEvent(refund: StandInRefund, account: string): Record<string, unknown> {
  return stripeEvent("refund.created", refund, account);
}

/**
 * The charge.refunded event of a payment intent's charge after `refunds` (all of its refunds so far), carrying
 * them as Stripe does when the refunds are included.
 */
export function chargeRefundedEvent(
  paymentIntent: StandInObject["json"],
  refunds: StandInRefund[],
  account: string,
  { withRefunds = true } = {},
): Record<string, unknown> {
  const refunded = refunds.reduce((sum, r) => sum + r.amount, 0);
  const amount = paymentIntent.amount as number;
  return stripeEvent(
    "charge.refunded",
    {
      id: `ch_${paymentIntent.id.slice(3)}`,
      object: "charge",
      amount,
      amount_captured: amount,
      amount_refunded: refunded,
      currency: paymentIntent.currency ?? "usd",
      paid: true,
      refunded: refunded >= amount,
      payment_intent: paymentIntent.id,
      metadata: {},
      ...(withRefunds ? { refunds: { object: "list", data: refunds, has_more: false, url: "/v1/refunds" } } : {}),
    },
    account,
  );
}
