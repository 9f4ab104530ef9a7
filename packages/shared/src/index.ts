export * from "./known-errors/index.ts";
export * from "./constants.ts";
export * from "./schema-fields.ts";
export type * from "./api/index.ts";
