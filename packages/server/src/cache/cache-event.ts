/** What a write tells the caches to drop, on this replica and (through cache/bus.ts) on every other. */
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
  | { t: "session"; id: string }
  | { t: "all" };
