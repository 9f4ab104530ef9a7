export * from "./projects.ts";
export * from "./users.ts";
export * from "./teams.ts";
export * from "./sessions.ts";
export * from "./signing-keys.ts";
export * from "./verification-codes.ts";
export * from "./emails.ts";
export * from "./permissions.ts";
