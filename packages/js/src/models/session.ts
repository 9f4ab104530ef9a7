import type { SessionJson } from "./json.ts";

/** One of a user's sessions, as the sessions list shows it. */
export interface ActiveSession {
  id: string;
  userId: string;
  createdAt: Date;
  isImpersonation: boolean;
  lastUsedAt: Date | undefined;
  isCurrentSession: boolean;
  /** The IP address the session was last used from, when the server knows it. */
  lastUsedIp: string | undefined;
}

export function activeSessionFromJson(json: SessionJson): ActiveSession {
  return {
    id: json.id,
    userId: json.user_id,
    createdAt: new Date(json.created_at),
    isImpersonation: json.is_impersonation,
    lastUsedAt: new Date(json.last_used_at),
    isCurrentSession: json.is_current_session,
    lastUsedIp: json.last_used_at_end_user_ip_info?.ip,
  };
}
