/**
 * What domain code records when it changes something (events/record.ts), in
 * the transaction of the change. The names and payloads of webhook events
 * follow WIRE-next §4; `user.created|updated` and `team.created|updated`
 * carry the id only, as the server user or team is rendered when delivered.
 * The other events (e-mail queued, a contact channel or an OAuth account
 * changed, permission definitions rewritten, project settings) are for this
 * server's own consumers: the caches and the e-mail queue.
 */
import type { CacheEvent } from "../cache/cache-event.ts";

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
}

export type DomainEventType = keyof EventData;

/** `branchId` is null for events of the whole project. */
export type DomainEvent = {
  [K in DomainEventType]: { type: K; projectId: string; branchId: string | null; data: EventData[K] };
}[DomainEventType];

/** What each replica's caches must drop when the event commits (cache/caches.ts). */
export function cacheEventsOf(event: DomainEvent): CacheEvent[] {
  switch (event.type) {
    case "user.updated":
    case "user.deleted":
    case "user.sign_in_methods_changed":
      return [{ t: "user", id: event.data.id }];
    case "contact_channel.created":
    case "contact_channel.updated":
    case "contact_channel.deleted":
    case "contact_channel.verified":
      return [{ t: "user", id: event.data.user_id }];
    case "team.created":
      return event.data.creator_user_id ? [{ t: "team-member", team: event.data.id, user: event.data.creator_user_id }] : [];
    case "team.updated":
    case "team.deleted":
      return [{ t: "team", id: event.data.id }];
    case "team_membership.deleted": {
      const member: CacheEvent = { t: "team-member", team: event.data.team_id, user: event.data.user_id };
      return event.data.selected_team_cleared ? [member, { t: "user", id: event.data.user_id }] : [member];
    }
    case "team_membership.created":
    case "team_permission.created":
    case "team_permission.deleted":
    case "team_invitation.accepted":
      return [{ t: "team-member", team: event.data.team_id, user: event.data.user_id }];
    case "project_permission.created":
    case "project_permission.deleted":
      return [{ t: "project-grants", user: event.data.user_id }];
    case "session.revoked":
      return [{ t: "session", id: event.data.id }];
    case "project.updated":
    case "project.deleted":
      return [{ t: "project", id: event.data.id }];
    case "project_keys.updated":
      return [{ t: "project-keys", id: event.data.id }];
    case "permission_definitions.updated":
      return [{ t: "permission-definitions", id: event.data.id }];
    case "permission_grants.rewritten":
      return [
        ...event.data.team_members.map((m): CacheEvent => ({ t: "team-member", team: m.team_id, user: m.user_id })),
        ...event.data.users.map((user): CacheEvent => ({ t: "project-grants", user })),
      ];
    case "user.created":
    case "team_invitation.created":
    case "session.created":
    case "email.queued":
      // Nothing cached can predate them: the caches keep only what was found.
      return [];
  }
}
