/**
 * The route helper. A route declares who may call it and the shape of its
 * input; the pipeline parses the body, authenticates, checks access, then
 * validates input before the handler runs. The same declarations produce the
 * OpenAPI document.
 */
import type { AccessType } from "@latchkey/shared";
import { z } from "zod";
import type { Services } from "../services.ts";
import type { RequestAuth } from "./auth.ts";
import type { HeaderReader } from "./headers.ts";

export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

type Infer<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerInput<B, Q, P, A> {
  body: B;
  query: Q;
  params: P;
  auth: A;
  services: Services;
  request: Request;
  /** Request headers (read these rather than request.headers: cheaper under Node). */
  headers: HeaderReader;
  /** The caller's address as the socket saw it (for session records). */
  ip: string | null;
}

export type RouteResult =
  | Response
  | { status?: number; body: unknown; headers?: Record<string, string> };

/**
 * `access`: the access types allowed, or "public" for routes that read
 * project credentials another way (or need none). `user: "required"` makes a
 * signed-in user mandatory (reported as `auth.user must be defined`).
 */
export interface RouteDefinition<
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Access extends readonly AccessType[] | "public" = readonly AccessType[] | "public",
> {
  method: Method;
  /** Under /api/v1, Hono syntax: `/users/:user_id`. */
  path: string;
  summary: string;
  tags: string[];
  access: Access;
  user?: "required";
  body?: B;
  /** When the caller has client access, validate the body with this narrower shape instead. */
  clientBody?: z.ZodType;
  query?: Q;
  params?: P;
  /** Documented success status (default 200). */
  status?: number;
  response?: z.ZodType;
  /**
   * A handler that has its answer at once should return it, not a promise:
   * the request is then answered synchronously (lib/maybe-async.ts).
   */
  handler: (
    input: HandlerInput<Infer<B>, Infer<Q>, Infer<P>, Access extends "public" ? RequestAuth | null : RequestAuth>,
  ) => Promise<RouteResult> | RouteResult;
}

export function defineRoute<
  B extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  P extends z.ZodType | undefined = undefined,
  const Access extends readonly AccessType[] | "public" = readonly AccessType[],
>(route: RouteDefinition<B, Q, P, Access>): RouteDefinition {
  return route as unknown as RouteDefinition;
}

