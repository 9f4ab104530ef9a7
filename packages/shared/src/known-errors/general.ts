import { defineKnownError } from "./base.ts";

export const UnsupportedError = defineKnownError("UNSUPPORTED_ERROR", 500, (operation: string) => ({
  message: `This operation is not supported: ${operation}`,
  details: { operation },
}));

export const BodyParsingError = defineKnownError("BODY_PARSING_ERROR", 400, (reason: string) => ({
  message: reason,
}));

export const SchemaError = defineKnownError("SCHEMA_ERROR", 400, (message: string) => ({
  message,
  details: { message },
}));

export const AllOverloadsFailed = defineKnownError("ALL_OVERLOADS_FAILED", 400, (overloadErrors: unknown[]) => ({
  message: "This endpoint has several request shapes and the request matched none of them.",
  details: { overload_errors: overloadErrors },
}));
