/**
 * Taking payments: a project's Stripe account, set up by its admins. Either
 * the operator's platform account onboards the project as a connected
 * account (Stripe Connect: `setup` answers the onboarding page), or, where
 * the operator offers no platform or the project's owners prefer, the
 * project sets its own Stripe secret key (`own-key`). Both keep the
 * account's state (whether it may charge and be paid out), refreshed by
 * Stripe's `account.updated` events at the webhook endpoints below.
 */
import { z } from "zod";
import { KnownErrors } from "../known-errors/index.ts";
import { defineEndpoint } from "./endpoint.ts";

const ADMIN = ["admin"] as const;

export const stripeAccountInfoJson = z.strictObject({
  account_id: z.string(),
  charges_enabled: z.boolean(),
  details_submitted: z.boolean(),
  payouts_enabled: z.boolean(),
});
export type StripeAccountInfoJson = z.infer<typeof stripeAccountInfoJson>;

export const paymentsSetupJson = z.strictObject({
  /** Stripe's onboarding page for the project's connected account; it sends the admin back to the dashboard. */
  url: z.string(),
});

export const stripeAccountSessionJson = z.strictObject({
  /** For Stripe's embedded components (payments, payouts) in the dashboard. */
  client_secret: z.string(),
});

export const stripeOwnKeyBody = z.strictObject({
  /** A secret (`sk_…`) or restricted (`rk_…`) key of the project's own Stripe account; checked with Stripe before it is kept. */
  secret_key: z.string().regex(/^(sk|rk)_[A-Za-z0-9_]+$/, "must be a Stripe secret key (sk_…) or restricted key (rk_…)"),
  /**
   * The signing secret (`whsec_…`) of the webhook endpoint the project adds in its Stripe dashboard, at
   * `/integrations/stripe/webhooks/<project id>` under this server's API.
   */
  webhook_secret: z.string().regex(/^whsec_[A-Za-z0-9_+/=]+$/, "must be a Stripe webhook signing secret (whsec_…)"),
  /** The same account's publishable key (`pk_…`), which the purchase page loads Stripe.js with; without it no card form. */
  publishable_key: z
    .string()
    .regex(/^pk_[A-Za-z0-9_]+$/, "must be a Stripe publishable key (pk_…)")
    .optional(),
});
export type StripeOwnKeyBody = z.infer<typeof stripeOwnKeyBody>;

export const stripeWebhookProjectParams = z.strictObject({ project_id: z.string() });

export const stripeWebhookJson = z.strictObject({ received: z.literal(true) });

export const paymentsAdminEndpoints = {
  setupPayments: defineEndpoint({
    method: "POST",
    path: "/internal/payments/setup",
    summary: "Start (or resume) the project's Stripe Connect onboarding: the onboarding page's URL",
    tags: ["Payments"],
    access: ADMIN,
    response: paymentsSetupJson,
  }),
  getStripeAccountInfo: defineEndpoint({
    method: "GET",
    path: "/internal/payments/stripe/account-info",
    summary: "The project's Stripe account and whether it may charge and be paid out",
    tags: ["Payments"],
    access: ADMIN,
    response: stripeAccountInfoJson,
    errors: [KnownErrors.StripeAccountInfoNotFound],
  }),
  setStripeOwnKey: defineEndpoint({
    method: "POST",
    path: "/internal/payments/stripe/own-key",
    summary: "Take payments with the project's own Stripe account (its secret key, kept encrypted) instead of Connect",
    tags: ["Payments"],
    access: ADMIN,
    body: stripeOwnKeyBody,
    response: stripeAccountInfoJson,
  }),
  createStripeAccountSession: defineEndpoint({
    method: "POST",
    path: "/internal/payments/stripe-widgets/account-session",
    summary: "A session for Stripe's embedded account components of the project's connected account",
    tags: ["Payments"],
    access: ADMIN,
    response: stripeAccountSessionJson,
  }),
  receiveStripeWebhook: defineEndpoint({
    method: "POST",
    path: "/integrations/stripe/webhooks",
    summary: "Stripe's events about the platform's connected accounts (signed with LATCHKEY_STRIPE_WEBHOOK_SECRET)",
    tags: ["Payments"],
    access: "public",
    rawBody: true,
    response: stripeWebhookJson,
  }),
  receiveProjectStripeWebhook: defineEndpoint({
    method: "POST",
    path: "/integrations/stripe/webhooks/:project_id",
    summary: "Stripe's events about a project's own Stripe account (signed with the project's webhook secret)",
    tags: ["Payments"],
    access: "public",
    rawBody: true,
    params: stripeWebhookProjectParams,
    response: stripeWebhookJson,
  }),
};
