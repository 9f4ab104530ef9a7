/**
 * The test-mode check of answers (ServerConfig.checkResponses): every success
 * a route sends must match its endpoint's response schema, so a view that
 * drifts from the contract in @latchkey/shared fails the tests that reach it
 * instead of reaching a client. Off (production), none of this runs.
 */
import type { AccessType } from "@latchkey/shared";
import type { z } from "zod";
import { mapMaybe, type MaybePromise } from "../lib/maybe-async.ts";
import { jsonResponse, jsonTextResponse } from "./response.ts";
import type { RouteDefinition, RouteResult } from "./route.ts";
import { issueMessage } from "./schema-errors.ts";

/** Answered as a 500 that says what did not match (only in test mode, where the reader is a developer). */
export class ResponseSchemaMismatch extends Error {
  constructor(route: RouteDefinition, messages: string[]) {
    super(`The answer of ${route.method} ${route.path} does not match its response schema:\n  - ${messages.join("\n  - ")}`);
    this.name = "ResponseSchemaMismatch";
  }
}

/** The route's answer as a Response, once it is checked against the schema for the caller's access type. */
export function checkedResponse(route: RouteDefinition, accessType: AccessType | null, result: RouteResult): MaybePromise<Response> {
  const schema = accessType === "client" && route.clientResponse ? route.clientResponse : route.response;
  if (!(result instanceof Response)) {
    const value = "json" in result ? JSON.parse(result.json) : result.body;
    assertMatches(route, schema, value);
    const status = result.status ?? route.status ?? 200;
    return "json" in result ? jsonTextResponse(status, result.json, result.headers) : jsonResponse(status, result.body, result.headers);
  }
  if (result.status >= 400) return result;
  const type = route.responseType ?? "json";
  if (type === "redirect") {
    assertMatches(route, schema, result.headers.get("location"));
    return result;
  }
  if (type === "binary") {
    assertMatches(route, schema, result.headers.get("content-type"));
    return result;
  }
  return mapMaybe(result.clone().text(), (text) => {
    assertMatches(route, schema, type === "text" ? text : JSON.parse(text));
    return result;
  });
}

function assertMatches(route: RouteDefinition, schema: z.ZodType, value: unknown): void {
  const parsed = schema.safeParse(value, { reportInput: true });
  if (!parsed.success)
    throw new ResponseSchemaMismatch(
      route,
      parsed.error.issues.map((issue) => issueMessage("response", issue)),
    );
}
