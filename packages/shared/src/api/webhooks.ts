/**
 * Webhook events: what the server delivers to a project's endpoints. Each
 * delivery's body is `{"type": <event type>, "data": <payload>}`, signed per
 * Standard Webhooks. Users and teams arrive as the server sees them (the
 * JSON of GET /users/:id and GET /teams/:id with server access); the other
 * events carry ids only.
 */
import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";
import { serverTeamJson } from "./teams.ts";
import { serverUserJson } from "./users.ts";

const id = z.string();
const teamMembershipJson = z.strictObject({ team_id: id, user_id: id });
const teamPermissionJson = z.strictObject({ id, team_id: id, user_id: id });
const projectPermissionJson = z.strictObject({ id, user_id: id });
const ofUserJson = z.strictObject({ id, user_id: id });
/** A user's key names its user, a team's key its team. */
const apiKeyJson = z.union([z.strictObject({ id, user_id: id }), z.strictObject({ id, team_id: id })]);

/** The message of the test event the dashboard sends (POST /internal/send-test-webhook). */
export const TEST_WEBHOOK_MESSAGE = "Stack webhook test event triggered from the Stack dashboard.";

/** Each event type's `data`. */
export const webhookEventDataSchemas = {
  "user.created": serverUserJson,
  "user.updated": serverUserJson,
  /** With the teams the user was a member of (each also gets its own team_membership.deleted). */
  "user.deleted": z.strictObject({ id, teams: z.array(z.strictObject({ id })) }),
  "team.created": serverTeamJson,
  "team.updated": serverTeamJson,
  "team.deleted": z.strictObject({ id }),
  "team_membership.created": teamMembershipJson,
  "team_membership.deleted": teamMembershipJson,
  "team_permission.created": teamPermissionJson,
  "team_permission.deleted": teamPermissionJson,
  "project_permission.created": projectPermissionJson,
  "project_permission.deleted": projectPermissionJson,
  "session.created": ofUserJson,
  "session.revoked": ofUserJson,
  "contact_channel.verified": ofUserJson,
  "api_key.created": apiKeyJson,
  "api_key.revoked": apiKeyJson,
  "team_invitation.created": z.strictObject({ id, team_id: id }),
  "team_invitation.accepted": teamMembershipJson,
  /** `endpointUrl` is the endpoint it was sent to. */
  "stack.test": z.strictObject({ message: z.string(), endpointUrl: z.string() }),
} as const;

export type WebhookEventType = keyof typeof webhookEventDataSchemas;
export const WEBHOOK_EVENT_TYPES = Object.keys(webhookEventDataSchemas) as WebhookEventType[];

/** Each event type's `data`, as JSON. */
export type WebhookEventData = { [K in WebhookEventType]: z.infer<(typeof webhookEventDataSchemas)[K]> };

/** A delivery's body: `switch (event.type)` narrows `data`. */
export type WebhookEvent = { [K in WebhookEventType]: { type: K; data: WebhookEventData[K] } }[WebhookEventType];

/**
 * A token for the Svix-compatible management API the server serves for the caller's project (under `url`, the
 * `serverUrl` of the `svix` client): the project's endpoints, messages and attempts, and nothing else.
 */
export const svixTokenJson = z.strictObject({ token: z.string(), url: z.string() });
export type SvixTokenJson = z.infer<typeof svixTokenJson>;

export const sendTestWebhookBody = z.strictObject({ endpoint_id: z.string() });
export type SendTestWebhookBody = z.infer<typeof sendTestWebhookBody>;

export const sendTestWebhookResultJson = z.union([
  z.strictObject({ success: z.literal(true) }),
  z.strictObject({ success: z.literal(false), error_message: z.string() }),
]);
export type SendTestWebhookResultJson = z.infer<typeof sendTestWebhookResultJson>;

const ADMIN = ["admin"] as const;

export const webhooksEndpoints = {
  createSvixToken: defineEndpoint({
    method: "POST",
    path: "/webhooks/svix-token",
    summary: "A token for the project's Svix-compatible webhook management API, and that API's base URL",
    tags: ["Webhooks"],
    access: ADMIN,
    body: z.strictObject({}),
    status: 201,
    response: svixTokenJson,
  }),
  sendTestWebhook: defineEndpoint({
    method: "POST",
    path: "/internal/send-test-webhook",
    summary: "Send a stack.test event now and report whether the endpoint took it",
    tags: ["Webhooks"],
    access: ADMIN,
    body: sendTestWebhookBody,
    response: sendTestWebhookResultJson,
  }),
};
