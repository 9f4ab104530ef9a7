export * from "./projects.ts";
export * from "./users.ts";
export * from "./teams.ts";
export * from "./sessions.ts";
export * from "./signing-keys.ts";
export * from "./verification-codes.ts";
export * from "./emails.ts";
export * from "./permissions.ts";
export * from "./passkeys.ts";
// A capability's tables live in its folder (capabilities/<name>/schema.ts).
export * from "../../capabilities/cli-login/schema.ts";
export * from "../../capabilities/images/schema.ts";
export * from "../../capabilities/ai-chat/schema.ts";
export * from "../../capabilities/user-team-api-keys/schema.ts";
export * from "./oauth.ts";
export * from "./config-overrides.ts";
export * from "./events.ts";
export * from "./jobs.ts";
