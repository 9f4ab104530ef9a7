/**
 * What domain code records when it changes something (events/record.ts), in
 * the transaction of the change. The names and payloads of webhook events
 * follow the published webhook payloads; `user.created|updated` and `team.created|updated`
 * carry the id only: the server user or team is rendered by the webhook fan-out (capabilities/webhooks).
 * The other events (e-mail queued, a contact channel or an OAuth account
 * changed, permission definitions rewritten, project settings) are for this
 * server's own consumers: the caches and the job runner, which subscribe
 * to them (Events.subscribe).
 */
import { WEBHOOK_EVENT_TYPES as ALL_WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@latchkey/shared";
interface EventData {
  "user.created": { id: string };
  "user.updated": { id: string };
  "user.deleted": { id: string; teams: { id: string }[] };
  /** `creator_user_id`: the member it was created with (no membership event is sent for them). */
  "team.created": { id: string; creator_user_id: string | null };
  "team.updated": { id: string };
  "team.deleted": { id: string };
  "team_membership.created": { team_id: string; user_id: string };
  /** `selected_team_cleared`: it was the user's selected team, which is now none. */
  "team_membership.deleted": { team_id: string; user_id: string; selected_team_cleared?: boolean };
  "team_permission.created": { id: string; team_id: string; user_id: string };
  "team_permission.deleted": { id: string; team_id: string; user_id: string };
  "project_permission.created": { id: string; user_id: string };
  "project_permission.deleted": { id: string; user_id: string };
  "team_invitation.created": { id: string; team_id: string };
  "team_invitation.accepted": { team_id: string; user_id: string };
  "session.created": { id: string; user_id: string };
  "session.revoked": { id: string; user_id: string };
  "contact_channel.created": { id: string; user_id: string };
  "contact_channel.updated": { id: string; user_id: string };
  "contact_channel.deleted": { id: string; user_id: string };
  "contact_channel.verified": { id: string; user_id: string };
  /** A sign-in method of the user changed: a password reset (ending their sessions), an OAuth account linked, updated or removed, passkeys removed. */
  "user.sign_in_methods_changed": { id: string };
  /** A message was queued in sent_emails (domain/emails/queue.ts). */
  "email.queued": { id: string };
  /** The project's row, settings or owner changed. */
  "project.updated": { id: string };
  "project.deleted": { id: string };
  "project_keys.updated": { id: string };
  /** Permission definitions were created, changed or deleted. */
  "permission_definitions.updated": { id: string };
  /** A definition's rename or deletion rewrote these grants (no webhook: only explicit grants and revokes send one). */
  "permission_grants.rewritten": { team_members: { team_id: string; user_id: string }[]; users: string[] };
  /** A user or team API key was created, or revoked (the first revocation only), for its owner (capabilities/user-team-api-keys). */
  "api_key.created": ApiKeyOwner;
  "api_key.revoked": ApiKeyOwner;
  /** A user or team API key's description changed (no webhook: the list has created and revoked only). */
  "api_key.updated": { id: string };
  /**
   * A customer was granted a product (capabilities/payments): by the API, a test-mode purchase, or a payment.
   * `id` is the purchase's; `product_id` is null for an inline product.
   */
  "payments.product_granted": {
    id: string;
    customer_type: "user" | "team" | "custom";
    customer_id: string;
    product_id: string | null;
    quantity: number;
    type: "one_time" | "subscription";
    source: "api_grant" | "test_mode" | "stripe";
  };
}

type ApiKeyOwner = { id: string; user_id: string } | { id: string; team_id: string };

export type DomainEventType = keyof EventData;

/**
 * The events a project's webhooks are sent (WIRE-next.md §4 and the ones
 * beyond the reference); the other types are for this server's own
 * consumers. Each is recorded exactly when (and only when) the change the
 * webhook announces commits:
 * - `user.created|updated` on every write of the users API (POST /users,
 *   PATCH /users/{id} and /users/me), every sign-up (password, one-time code,
 *   OAuth, anonymous) and anonymous upgrade, and other writes that change the
 *   server user (a password set or changed, `passkey_auth_enabled` following
 *   the user's passkeys); `user.deleted` with `team_membership.deleted` for
 *   each team the user was in.
 * - `team.created` also for a personal team; the creator's membership and
 *   permissions send nothing, and `team.deleted` sends no member events.
 * - `team_membership.created` (POST /team-memberships, an accepted invitation)
 *   with `team_permission.created` for each default permission granted;
 *   otherwise permission events only for an explicit grant or revoke.
 * - `contact_channel.verified` when a code mailed to the address proves it
 *   (a verification link, a one-time sign-in code, a password reset); a
 *   server setting `is_verified` sends no such event.
 * Payloads carry ids; `team.created` and `team_membership.deleted` carry
 * fields for the caches too (`creator_user_id`, `selected_team_cleared`),
 * which are not part of the published payload.
 */
export const WEBHOOK_EVENT_TYPES: readonly WebhookChangeType[] = ALL_WEBHOOK_EVENT_TYPES.filter(
  (type): type is WebhookChangeType => type !== "stack.test",
);

/**
 * The webhook events of @latchkey/shared that report a change: all but the dashboard's test event. Each must be a
 * domain event (the check below fails to compile when one is not).
 */
export type WebhookChangeType = Exclude<WebhookEventType, "stack.test">;
type MustBeDomainEvents<T extends DomainEventType> = T;
export type WebhookDomainEventType = MustBeDomainEvents<WebhookChangeType>;

/** `branchId` is null for events of the whole project. */
export type DomainEvent = {
  [K in DomainEventType]: { type: K; projectId: string; branchId: string | null; data: EventData[K] };
}[DomainEventType];
