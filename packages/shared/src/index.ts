export * from "./known-errors/index.ts";
export * from "./constants.ts";
export * from "./schema-fields.ts";
export * from "./case.ts";
export * from "./setting-anchors.ts";
export * from "./api/index.ts";
export * from "./dashboard-routes.ts";
export * from "./config/index.ts";
