/**
 * The Stripe stand-in's billing calls (stripe-stand-in.ts hands them the
 * requests it does not answer itself): SetupIntents (made, read, and, as a
 * customer's card form would, succeeded by a test with a card), a
 * customer's saved cards (`listPaymentMethods`) and their invoices' default
 * card (`customers.update` of `invoice_settings`), and Stripe.js confirming
 * a SetupIntent from the card form. `invoice` builds an invoice as Stripe's
 * `invoice.*` events carry it.
 */
import { randomBytes } from "node:crypto";
import type { StandInObject, StripeStandInRequest } from "./stripe-stand-in.ts";

type Answer = { status: number; json: unknown };

export interface StandInCard {
  brand?: string;
  last4?: string;
  exp_month?: number;
  exp_year?: number;
}

export interface StandInBilling {
  setupIntents: Map<string, StandInObject>;
  /** Saved cards, by id, with the customer they are saved on. */
  paymentMethods: Map<string, StandInObject & { customer: string }>;
  /** What a customer's card form does: the intent succeeds, saving a new card on its customer; answers the card's id. */
  succeedSetupIntent(setupIntentId: string, card?: StandInCard): string;
  /** A card saved on the customer without being made the invoices' default; answers its id. */
  attachCard(customerId: string, card?: StandInCard): string;
}

/** Test payment methods a card form's confirmation may name: the first two save a card, the last is declined. */
export const STAND_IN_SETUP_CARDS = { visa: "pm_card_visa", mastercard: "pm_card_mastercard", declined: "pm_card_chargeDeclined" } as const;

/** The card each saving test payment method saves. */
const SAVED_CARDS: Record<string, StandInCard> = {
  [STAND_IN_SETUP_CARDS.visa]: { brand: "visa", last4: "4242", exp_month: 12, exp_year: 2034 },
  [STAND_IN_SETUP_CARDS.mastercard]: { brand: "mastercard", last4: "4444", exp_month: 8, exp_year: 2031 },
};

const newId = (prefix: string) => `${prefix}_${randomBytes(12).toString("hex")}`;
const now = () => Math.floor(Date.now() / 1000);

function error(status: number, type: string, message: string, extra: Record<string, string> = {}): Answer {
  return { status, json: { error: { type, message, ...extra } } };
}

const missing = (what: string, id: string) => error(404, "invalid_request_error", `No such ${what}: '${id}'`, { code: "resource_missing" });

export function standInBilling(customers: Map<string, StandInObject>) {
  const setupIntents = new Map<string, StandInObject>();
  const paymentMethods = new Map<string, StandInObject & { customer: string }>();
  let made = 0;

  function saveCard(customerId: string, card: StandInCard = {}): string {
    const customer = customers.get(customerId);
    if (!customer) throw new Error(`The stand-in has no customer ${customerId}`);
    const json = {
      id: newId("pm"),
      object: "payment_method",
      type: "card",
      customer: customerId,
      // Stripe lists a customer's cards newest first; seconds alone would tie.
      created: now() + made++,
      metadata: {},
      card: { brand: card.brand ?? "visa", last4: card.last4 ?? "4242", exp_month: card.exp_month ?? 12, exp_year: card.exp_year ?? 2034 },
    };
    paymentMethods.set(json.id, { account: customer.account, customer: customerId, json });
    return json.id;
  }

  /** The calls this block answers; null: not one of them. `on` is the account the request acts on. */
  function answer(request: StripeStandInRequest, on: string | undefined): Answer | null {
    const { method, path, form } = request;
    if (method === "POST" && path === "/v1/setup_intents") {
      const customer = customers.get(form.customer ?? "");
      if (!customer || customer.account !== on) return missing("customer", form.customer ?? "");
      const id = newId("seti");
      const json = {
        id,
        object: "setup_intent",
        customer: form.customer,
        usage: form.usage ?? "off_session",
        allowed_payment_method_types: Object.entries(form)
          .filter(([k]) => k.startsWith("allowed_payment_method_types["))
          .map(([, v]) => v),
        payment_method: null,
        status: "requires_payment_method",
        client_secret: `${id}_secret_${randomBytes(12).toString("hex")}`,
        metadata: {},
        created: now(),
      };
      setupIntents.set(id, { account: customer.account, json });
      return { status: 200, json };
    }
    const intentPath = /^\/v1\/setup_intents\/([^/]+)$/.exec(path);
    if (method === "GET" && intentPath) {
      const intentId = decodeURIComponent(intentPath[1]!);
      const intent = setupIntents.get(intentId);
      return intent && intent.account === on ? { status: 200, json: intent.json } : missing("setupintent", intentId);
    }
    const methodsPath = /^\/v1\/customers\/([^/]+)\/payment_methods$/.exec(path);
    if (method === "GET" && methodsPath) {
      const customerId = decodeURIComponent(methodsPath[1]!);
      const customer = customers.get(customerId);
      if (!customer || customer.account !== on) return missing("customer", customerId);
      const data = [...paymentMethods.values()]
        .filter((pm) => pm.customer === customerId && (form.type === undefined || pm.json.type === form.type))
        .map((pm) => pm.json)
        .sort((a, b) => Number(b.created) - Number(a.created))
        .slice(0, form.limit === undefined ? undefined : Number(form.limit));
      return { status: 200, json: { object: "list", data, has_more: false, url: path } };
    }
    const customerPath = /^\/v1\/customers\/([^/]+)$/.exec(path);
    if (method === "POST" && customerPath && form["invoice_settings[default_payment_method]"] !== undefined) {
      const customerId = decodeURIComponent(customerPath[1]!);
      const customer = customers.get(customerId);
      if (!customer || customer.account !== on) return missing("customer", customerId);
      const pmId = form["invoice_settings[default_payment_method]"];
      const pm = paymentMethods.get(pmId);
      if (!pm || pm.customer !== customerId)
        return error(400, "invalid_request_error", `The customer does not have a payment method with the ID ${pmId}.`, {
          param: "invoice_settings[default_payment_method]",
        });
      // Kept as the object (the server reads it expanded).
      customer.json.invoice_settings = { default_payment_method: pm.json };
      return { status: 200, json: customer.json };
    }
    return null;
  }

  /**
   * What Stripe.js asks with a publishable key when a customer's card form confirms a SetupIntent (`on`: the
   * account the key acts on, null for a key Stripe does not know); null: not such a request.
   */
  function confirmFromStripeJs(request: StripeStandInRequest, on: string | null): Answer | null {
    const match = /^\/v1\/setup_intents\/([^/]+)\/confirm$/.exec(request.path);
    if (request.method !== "POST" || !match || !request.apiKey?.startsWith("pk_")) return null;
    if (!on) return error(401, "invalid_request_error", `Invalid API Key provided: ${request.apiKey.slice(0, 8)}****`);
    const intentId = decodeURIComponent(match[1]!);
    const intent = setupIntents.get(intentId);
    // Stripe answers a publishable key only about an intent whose client secret it is shown, on its account.
    if (!intent || intent.account !== on || intent.json.client_secret !== request.form.client_secret)
      return missing("setupintent", intentId);
    if (intent.json.status === "succeeded")
      return error(400, "invalid_request_error", "This SetupIntent has already succeeded.", { code: "setup_intent_unexpected_state" });
    const paymentMethod = request.form.payment_method ?? STAND_IN_SETUP_CARDS.visa;
    if (paymentMethod === STAND_IN_SETUP_CARDS.declined) {
      const declined = { type: "card_error", code: "card_declined", decline_code: "generic_decline", message: "Your card was declined." };
      Object.assign(intent.json, { status: "requires_payment_method", last_setup_error: declined });
      return { status: 402, json: { error: { ...declined, setup_intent: intent.json } } };
    }
    const card = SAVED_CARDS[paymentMethod];
    if (!card) return missing("paymentmethod", paymentMethod);
    const pmId = saveCard(String(intent.json.customer), card);
    Object.assign(intent.json, { status: "succeeded", payment_method: pmId, last_setup_error: null });
    return { status: 200, json: intent.json };
  }

  const billing: StandInBilling = {
    setupIntents,
    paymentMethods,
    succeedSetupIntent(setupIntentId, card) {
      const intent = setupIntents.get(setupIntentId);
      if (!intent) throw new Error(`The stand-in has no setup intent ${setupIntentId}`);
      const pmId = saveCard(String(intent.json.customer), card);
      Object.assign(intent.json, { status: "succeeded", payment_method: pmId });
      return pmId;
    },
    attachCard: (customerId, card) => saveCard(customerId, card),
  };
  return { answer, confirmFromStripeJs, billing };
}

/** An invoice of a subscription as Stripe's `invoice.*` events carry it (amounts in minor units). */
export function stripeInvoice(invoice: {
  id: string;
  subscription: string;
  status: string;
  total: number;
  created: number;
  hostedInvoiceUrl?: string | null;
}): Record<string, unknown> {
  return {
    id: invoice.id,
    object: "invoice",
    status: invoice.status,
    total: invoice.total,
    currency: "usd",
    created: invoice.created,
    hosted_invoice_url: invoice.hostedInvoiceUrl ?? null,
    parent: {
      type: "subscription_details",
      subscription_details: { subscription: invoice.subscription, metadata: {} },
      quote_details: null,
    },
    lines: { object: "list", data: [] },
  };
}
