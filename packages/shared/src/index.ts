export * from "./known-errors/index.ts";
export * from "./constants.ts";
export * from "./schema-fields.ts";
