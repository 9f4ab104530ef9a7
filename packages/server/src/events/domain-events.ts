/**
 * What domain code records when it changes something (events/record.ts), in
 * the transaction of the change. The names and payloads of webhook events
 * follow the published webhook payloads; `user.created|updated` and `team.created|updated`
 * carry the id only, as the server user or team is rendered when delivered.
 * The other events (e-mail queued, a contact channel or an OAuth account
 * changed, permission definitions rewritten, project settings) are for this
 * server's own consumers: the caches and the job runner, which subscribe
 * to them (Events.subscribe).
 */
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
  /** A user or team API key's description changed, or it was revoked (capabilities/user-team-api-keys). */
  "api_key.updated": { id: string };
}

export type DomainEventType = keyof EventData;

/** `branchId` is null for events of the whole project. */
export type DomainEvent = {
  [K in DomainEventType]: { type: K; projectId: string; branchId: string | null; data: EventData[K] };
}[DomainEventType];
