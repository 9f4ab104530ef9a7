/**
 * An admin app's webhooks: a test event sent to one endpoint, answered by whether it took it, and the token of
 * the Svix-compatible management API the server serves for the project (endpoints, messages, attempts), with
 * that API's base URL: `new Svix(token, { serverUrl: url })` from the `svix` package manages the endpoints.
 */
import type { AdminProjectContext } from "../models/admin-project.ts";
import { Result } from "../result.ts";

export interface WebhooksToken {
  token: string;
  /** The `serverUrl` of a `svix` client for this server. */
  url: string;
}

export class AdminWebhooks {
  constructor(private readonly context: AdminProjectContext) {}

  private get asAdmin() {
    return { accessType: "admin", adminSession: this.context.adminSession } as const;
  }

  /** Sends a `stack.test` event to the endpoint now; an error Result says why it was not taken. */
  async sendTestWebhook(options: { endpointId: string }): Promise<Result<undefined, { errorMessage: string }>> {
    const body = await this.context.api.call("POST /internal/send-test-webhook", {
      ...this.asAdmin,
      body: { endpoint_id: options.endpointId },
    });
    return body.success ? Result.ok(undefined) : Result.error({ errorMessage: body.error_message });
  }

  /** A new token for the project's webhook management API (it lasts a day). */
  async getSvixToken(): Promise<WebhooksToken> {
    return this.context.api.call("POST /webhooks/svix-token", { ...this.asAdmin, body: {} });
  }
}
