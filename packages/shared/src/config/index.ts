export * from "./schema.ts";
export * from "./override.ts";
export * from "./validate.ts";
export * from "./payments.ts";
export { isPlainObject } from "./walk.ts";
