/**
 * The wire shapes of the API's objects (WIRE §2), snake_case as sent. The
 * server's views are typed with these and the SDK reads them, so a field
 * renamed on one side fails to compile on the other.
 */
export type * from "./json.ts";
export type * from "./teams.ts";
export type * from "./users.ts";
export type * from "./sessions.ts";
export type * from "./projects.ts";
export type * from "./api-keys.ts";
export type * from "./emails.ts";
export type * from "./contact-channels.ts";
