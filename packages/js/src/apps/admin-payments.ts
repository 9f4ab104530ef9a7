/**
 * An admin app's payments setup: the project's Stripe account, onboarded
 * through the server operator's platform (Stripe Connect) or reached with the
 * project's own secret key, its state, and sessions for Stripe's embedded
 * account components. Answers keep the API's field names, as the official
 * SDK's do.
 */
import type { StripeAccountInfoJson } from "@latchkey/shared/api/index";
import { KnownErrors } from "@latchkey/shared/known-errors/index";
import type { AdminProjectContext } from "../models/admin-project.ts";

export type StripeAccountInfo = StripeAccountInfoJson;

export class AdminPayments {
  constructor(private readonly context: AdminProjectContext) {}

  private get asAdmin() {
    return { accessType: "admin", adminSession: this.context.adminSession } as const;
  }

  /** Starts (or resumes) Stripe Connect onboarding: the URL of Stripe's onboarding page to send the admin to. */
  async setupPayments(): Promise<{ url: string }> {
    return this.context.api.call("POST /internal/payments/setup", this.asAdmin);
  }

  /** The project's Stripe account and whether it may charge and be paid out; null before any setup. */
  async getStripeAccountInfo(): Promise<StripeAccountInfo | null> {
    try {
      return await this.context.api.call("GET /internal/payments/stripe/account-info", this.asAdmin);
    } catch (error) {
      if (error instanceof KnownErrors.StripeAccountInfoNotFound) return null;
      throw error;
    }
  }

  /** A session for Stripe's embedded components (payments, payouts) of the project's connected account. */
  async createStripeWidgetAccountSession(): Promise<{ client_secret: string }> {
    return this.context.api.call("POST /internal/payments/stripe-widgets/account-session", this.asAdmin);
  }

  /**
   * Makes the project take payments with its own Stripe account instead of Connect: the key is checked with
   * Stripe, then kept encrypted on the server with the webhook signing secret and the publishable key (which the
   * purchase page's card form needs: without it buyers cannot pay by card).
   */
  async setStripeOwnKey(options: { secretKey: string; webhookSecret: string; publishableKey?: string }): Promise<StripeAccountInfo> {
    return this.context.api.call("POST /internal/payments/stripe/own-key", {
      ...this.asAdmin,
      body: {
        secret_key: options.secretKey,
        webhook_secret: options.webhookSecret,
        ...(options.publishableKey ? { publishable_key: options.publishableKey } : {}),
      },
    });
  }
}
