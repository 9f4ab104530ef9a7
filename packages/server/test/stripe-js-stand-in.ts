/**
 * A stand-in for Stripe.js in the browser tests: the page's request for
 * https://js.stripe.com/… is answered with a small script defining `Stripe`,
 * with the few calls the purchase pages and billing's card form make
 * (Elements and a Payment Element that mounts a plain card field,
 * `elements.submit`, `confirmPayment`, `retrievePaymentIntent`,
 * `confirmSetup`). A card number picks Stripe's test card: 4000000000000002
 * is declined, 5555555555554444 is a Mastercard, any other a Visa. Its API
 * calls go to https://api.stripe.com as Stripe.js's do (so the page's CSP is
 * exercised) and are forwarded to the Stripe API stand-in
 * (stripe-stand-in.ts). Nothing is fetched from the internet: any other
 * request to a Stripe host fails.
 */
import type { Page } from "playwright-core";
import type { StripeStandIn } from "./stripe-stand-in.ts";

/** What the page asked of Stripe.js, read back with `stripeJsCalls(page)`. */
export interface StripeJsCalls {
  /** Each `Stripe(key, options)`. */
  loads: { key: string; options: { stripeAccount?: string } | undefined }[];
  /** Each `stripe.elements(options)` and later `elements.update(options)`. */
  elementsOptions: Record<string, unknown>[];
  /** Each SetupIntent `confirmSetup` sent to Stripe, and whether Stripe saved the card. */
  confirmedSetups: { setupIntent: string; succeeded: boolean }[];
}

const SCRIPT = String.raw`
(() => {
  const calls = { loads: [], elementsOptions: [], confirmedSetups: [] };
  window.__stripeJsCalls = calls;
  const api = async (key, account, method, path, params) => {
    const body = new URLSearchParams(params).toString();
    const url = "https://api.stripe.com" + path + (method === "GET" ? "?" + body : "");
    const headers = { authorization: "Bearer " + key };
    if (account) headers["stripe-account"] = account;
    if (method === "POST") headers["content-type"] = "application/x-www-form-urlencoded";
    const res = await fetch(url, { method, headers, body: method === "POST" ? body : undefined });
    return res.json();
  };
  const intentOf = (clientSecret) => clientSecret.slice(0, clientSecret.indexOf("_secret_"));
  // Stripe's test card numbers, as the test payment methods the API stand-in knows.
  const testCard = (number) =>
    ({ "4000000000000002": "pm_card_chargeDeclined", "5555555555554444": "pm_card_mastercard" })[number] || "pm_card_visa";
  function Stripe(key, options) {
    calls.loads.push({ key, options });
    const account = options && options.stripeAccount;
    const stripe = {
      _registerWrapper() {},
      registerAppInfo() {},
      createToken() {},
      createPaymentMethod() {},
      confirmCardPayment() {},
      elements(elementsOptions) {
        calls.elementsOptions.push(elementsOptions);
        let field = null;
        const elements = {
          clientSecret: elementsOptions && elementsOptions.clientSecret,
          update(changes) { calls.elementsOptions.push(changes); },
          getElement() { return null; },
          fetchUpdates() { return Promise.resolve({}); },
          async submit() {
            if (!field || !field.value) return { error: { type: "validation_error", message: "Your card number is incomplete." } };
            return {};
          },
          create(type) {
            const handlers = {};
            return {
              mount(node) {
                const label = document.createElement("label");
                label.textContent = "Card number";
                field = document.createElement("input");
                field.name = "cardnumber";
                label.appendChild(field);
                node.appendChild(label);
                setTimeout(() => (handlers.ready || []).forEach((h) => h({ elementType: type })));
              },
              on(event, handler) { (handlers[event] ||= []).push(handler); },
              off(event, handler) { handlers[event] = (handlers[event] || []).filter((h) => h !== handler); },
              update() {},
              unmount() {},
              destroy() { field = null; },
            };
          },
          cardNumber() { return field && field.value; },
        };
        stripe.__elements = elements;
        return elements;
      },
      async confirmPayment({ elements, clientSecret, confirmParams }) {
        const card = testCard(elements.cardNumber());
        const answer = await api(key, account, "POST", "/v1/payment_intents/" + intentOf(clientSecret) + "/confirm", {
          client_secret: clientSecret,
          payment_method: card,
          return_url: confirmParams.return_url,
        });
        if (answer.error) return { error: answer.error };
        const back = new URL(confirmParams.return_url);
        back.searchParams.set("payment_intent", answer.id);
        back.searchParams.set("payment_intent_client_secret", clientSecret);
        back.searchParams.set("redirect_status", "succeeded");
        window.location.assign(back.toString());
        return new Promise(() => {});
      },
      async confirmSetup({ elements, clientSecret, confirmParams, redirect }) {
        const secret = clientSecret || elements.clientSecret;
        if (!secret) throw new Error("confirmSetup needs a client secret (given, or the elements')");
        if (redirect !== "if_required") throw new Error("The stand-in confirms a SetupIntent only with redirect: if_required");
        if (!elements.cardNumber()) return { error: { type: "validation_error", message: "Your card number is incomplete." } };
        const answer = await api(key, account, "POST", "/v1/setup_intents/" + intentOf(secret) + "/confirm", {
          client_secret: secret,
          payment_method: testCard(elements.cardNumber()),
          ...(confirmParams && confirmParams.return_url ? { return_url: confirmParams.return_url } : {}),
        });
        calls.confirmedSetups.push({ setupIntent: intentOf(secret), succeeded: !answer.error });
        return answer.error ? { error: answer.error } : { setupIntent: answer };
      },
      async retrievePaymentIntent(clientSecret) {
        const answer = await api(key, account, "GET", "/v1/payment_intents/" + intentOf(clientSecret), { client_secret: clientSecret });
        return answer.error ? { error: answer.error } : { paymentIntent: answer };
      },
    };
    return stripe;
  }
  Stripe.version = "endive";
  window.Stripe = Stripe;
})();
`;

const CORS = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "authorization, content-type, stripe-account",
  "access-control-allow-methods": "GET, POST",
};

/**
 * Answers the page's Stripe.js and Stripe API requests from the stand-ins; answers the requests' URLs seen at
 * js.stripe.com (to tell that a page loaded no Stripe.js at all).
 */
export async function routeStripe(page: Page, stripe: StripeStandIn): Promise<{ scriptRequests: string[] }> {
  const scriptRequests: string[] = [];
  // Anything else of Stripe's (its telemetry, fonts, 3-D Secure) would be the internet: refused. Registered
  // first, as the routes registered later are tried first.
  await page.route(/^https:\/\/([a-z0-9-]+\.)*stripe\.(com|network)\//, (route) => route.abort());
  await page.route("https://js.stripe.com/**", (route) => {
    scriptRequests.push(route.request().url());
    return route.fulfill({ status: 200, contentType: "text/javascript; charset=utf-8", body: SCRIPT });
  });
  await page.route("https://api.stripe.com/**", async (route) => {
    const request = route.request();
    if (request.method() === "OPTIONS") return route.fulfill({ status: 204, headers: CORS });
    const url = new URL(request.url());
    const response = await route.fetch({ url: `${stripe.url}${url.pathname}${url.search}` });
    return route.fulfill({ response, headers: { ...response.headers(), ...CORS } });
  });
  return { scriptRequests };
}

export function stripeJsCalls(page: Page): Promise<StripeJsCalls> {
  return page.evaluate(() => (window as unknown as { __stripeJsCalls: StripeJsCalls }).__stripeJsCalls);
}
