/**
 * The route helper. An endpoint's contract — who may call it, the schemas of
 * its input and answer, its coded errors — is declared once in
 * @latchkey/shared (api/<area>.ts); a route file pairs it with the handler
 * that serves it:
 *
 *   export default [defineRoute(usersEndpoints.getUser, async ({ auth, params, services }) => ({
 *     body: serverUserView(await getUserOrThrow(services, auth, params.user_id), auth.project.config),
 *   }))];
 *
 * The pipeline parses the body, authenticates, checks access, then validates
 * the input before the handler runs; in tests it also checks every answer
 * against the endpoint's response schema. The same declarations produce the
 * OpenAPI document.
 */
import type { AccessType, EndpointAnyResponse, EndpointDefinition } from "@latchkey/shared";
import type { z } from "zod";
import type { Services } from "../services.ts";
import type { RequestAuth } from "./auth.ts";
import type { HeaderReader } from "./headers.ts";

export type Method = EndpointDefinition["method"];

type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerInput<B, Q, P, A> {
  body: B;
  query: Q;
  params: P;
  auth: A;
  services: Services;
  request: Request;
  /** Request headers (read these rather than request.headers: cheaper under Node). */
  headers: HeaderReader;
  /** The client's address: the socket's peer, or what trusted proxies forwarded (http/client-address.ts). */
  ip: string | null;
  /** The client's country (ISO 3166-1 alpha-2) when a trusted proxy sent it; for new users' country_code. */
  country: string | null;
}

/**
 * What a handler answers: a JSON body (`body`), JSON it has already
 * serialized (`json`, for hot paths that keep the text), or, for answers that
 * are not JSON (text, redirects, documents with their own cache headers), a
 * Response.
 */
export type RouteResult<T = unknown> =
  | Response
  | { status?: number; body: T; headers?: Record<string, string> }
  | { status?: number; json: string; headers?: Record<string, string> };

type Body<E extends EndpointDefinition> =
  Output<E extends { body: infer B } ? B : undefined> | (E extends { clientBody: infer C } ? Output<C> : never);
type Auth<E extends EndpointDefinition> = E["access"] extends "public" ? RequestAuth | null : RequestAuth;

export type EndpointHandlerInput<E extends EndpointDefinition> = HandlerInput<
  E extends { rawBody: true } ? Uint8Array | undefined : E extends { body: z.ZodType } ? Body<E> : undefined,
  Output<E extends { query: infer Q } ? Q : undefined>,
  Output<E extends { params: infer P } ? P : undefined>,
  Auth<E>
>;

/**
 * A handler that has its answer at once should return it, not a promise:
 * the request is then answered synchronously (lib/maybe-async.ts).
 */
export type EndpointHandler<E extends EndpointDefinition> = (
  input: EndpointHandlerInput<E>,
) => Promise<RouteResult<EndpointAnyResponse<E>>> | RouteResult<EndpointAnyResponse<E>>;

/** A served endpoint: its contract and its handler. */
export interface RouteDefinition extends EndpointDefinition {
  // A method signature on purpose: its parameter is checked bivariantly, so a
  // handler typed for its own endpoint's input fits the erased route list.
  handler(input: HandlerInput<unknown, unknown, unknown, unknown>): Promise<RouteResult> | RouteResult;
}

/** Pairs an endpoint of the contract with the handler that serves it. */
export function defineRoute<const E extends EndpointDefinition>(endpoint: E, handler: EndpointHandler<NoInfer<E>>): RouteDefinition;
export function defineRoute(endpoint: EndpointDefinition, handler: EndpointHandler<EndpointDefinition>): RouteDefinition {
  return { ...endpoint, handler } as RouteDefinition;
}

/** The access types a route allows, or none for a public route. */
export function allowedAccess(route: Pick<EndpointDefinition, "access">): readonly AccessType[] {
  return route.access === "public" ? [] : route.access;
}
