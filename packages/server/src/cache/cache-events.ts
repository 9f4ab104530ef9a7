/**
 * What the caches need of the domain events: each event becomes the cache
 * events that say what to drop. A cache event is the message replicas send
 * each other (as JSON, by pg_notify: bus.ts), so it names only ids.
 */
import type { DomainEvent } from "../events/domain-events.ts";

export type CacheEvent =
  | { t: "project"; id: string }
  | { t: "project-keys"; id: string }
  | { t: "user"; id: string }
  | { t: "team"; id: string }
  /** A member's membership or team permission grants changed. */
  | { t: "team-member"; team: string; user: string }
  /** A user's project permission grants changed. */
  | { t: "project-grants"; user: string }
  /** A project's permission definitions changed. */
  | { t: "permission-definitions"; id: string }
  /** A session ended (it was deleted: signed out or revoked). */
  | { t: "session"; id: string }
  /** A user or team API key changed (revoked, described). */
  | { t: "api-key"; id: string }
  | { t: "all" }
  /**
   * Changes nothing. Replicas hear notifications in the order their transactions committed, so once a
   * replica hears a marker sent after a write committed, it has applied that write's events (bus.ts: heard).
   */
  | { t: "marker"; id: string };

/** What each replica's caches must drop when the event commits (caches.ts). */
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
    case "api_key.updated":
    case "api_key.revoked":
      return [{ t: "api-key", id: event.data.id }];
    case "user.created":
    case "team_invitation.created":
    case "session.created":
    case "api_key.created":
    case "email.queued":
    case "payments.product_granted":
      // Nothing cached can predate them: the caches keep only what was found.
      return [];
  }
}
