/**
 * One endpoint of the API, written once: its method and path, who may call it,
 * the zod schemas of its path parameters, query, body and response, and the
 * coded errors it can answer with. The server validates requests, checks its
 * own answers in tests and writes the OpenAPI document from these; the SDK's
 * HTTP layer is typed by the `Endpoints` map built from them (api/index.ts),
 * so a call with a wrong path, body or response type does not compile.
 *
 * @example
 * export const getUser = defineEndpoint({
 *   method: "GET",
 *   path: "/users/:user_id",
 *   summary: "Get a user",
 *   tags: ["Users"],
 *   access: ["server", "admin"],
 *   params: z.object({ user_id: uuidSchema }),
 *   response: serverUserJson,
 *   errors: [KnownErrors.UserNotFound],
 * });
 */
import type { z } from "zod";
import type { AccessType } from "../constants.ts";
import type { RenderedConfig } from "../config/schema.ts";
import type { KnownErrorClass } from "../known-errors/base.ts";
import type { SystemTeamPermissionId } from "./permissions.ts";

export type HttpMethod = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export interface EndpointDefinition {
  readonly method: HttpMethod;
  /** Under /api/v1, with `:name` for a path parameter: `/users/:user_id`. */
  readonly path: string;
  readonly summary: string;
  readonly tags: readonly string[];
  /** The access types allowed, or "public" for endpoints that read credentials another way (or need none). */
  readonly access: readonly AccessType[] | "public";
  /** A signed-in user is required (reported as `auth.user must be defined`). */
  readonly user?: "required";
  /**
   * The team permissions a caller with client access needs, in the team the
   * request names (its `team_id`). The server checks it before the handler
   * runs (no signed-in user: USER_AUTHENTICATION_REQUIRED, or
   * CANNOT_GET_OWN_USER_WITHOUT_USER when the request names `me`; not a member:
   * TEAM_MEMBERSHIP_NOT_FOUND; a member without it, directly or through a
   * permission that contains it: TEAM_PERMISSION_REQUIRED). Server and admin
   * callers need none.
   */
  readonly teamPermission?: TeamPermissionRequirement;
  /**
   * The project setting that turns the endpoint on. Checked right after the
   * request's validation (before `teamPermission` and the handler); off:
   * 400 with `offMessage` as plain text.
   */
  readonly enabledBy?: SettingGate;
  readonly params?: z.ZodType;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /**
   * The handler is given the body as the bytes sent (a Uint8Array, or undefined without one), neither parsed nor
   * checked: a signed webhook, whose signature covers exactly those bytes. No `body` schema then.
   */
  readonly rawBody?: true;
  /** A narrower body for callers with client access (they may set fewer fields). */
  readonly clientBody?: z.ZodType;
  /** The success status (default 200). */
  readonly status?: number;
  /** Other success statuses the handler answers with, with the same response schema (CLI polling: 201 once it succeeds). */
  readonly otherStatuses?: readonly number[];
  /**
   * The success answer. JSON unless `responseType` says otherwise: a text
   * answer's schema is `z.string()`, a redirect's is the `Location` it sends.
   */
  readonly response: z.ZodType;
  /** What a caller with client access gets instead (a narrower view of the same object). */
  readonly clientResponse?: z.ZodType;
  /** `binary`: the bytes of a file, whose schema is the Content-Type it is answered with. */
  readonly responseType?: "json" | "text" | "redirect" | "binary";
  /**
   * The coded errors this endpoint itself can answer with. The errors of
   * authentication and request validation, which every endpoint can answer
   * with, are added by the server for all of them.
   */
  readonly errors?: readonly KnownErrorClass[];
}

export interface TeamPermissionRequirement {
  /** All needed, checked in this order. */
  readonly permissions: readonly SystemTeamPermissionId[];
  /** The part of the request that carries `team_id`; a request without one is not checked here (its schema decides). */
  readonly teamIdIn: "params" | "query" | "body";
  /** The part that carries `user_id`: when it names the caller (`me` or their id), membership is enough. */
  readonly exceptOwnUserIn?: "params" | "query";
  /**
   * What a client that is not a member (or names no team of the project), or
   * lacks a permission, is answered instead of TEAM_MEMBERSHIP_NOT_FOUND and
   * TEAM_PERMISSION_REQUIRED: a resource that keeps the team's existence to
   * itself (a team's API keys answer API_KEY_NOT_FOUND).
   */
  readonly refusal?: KnownErrorClass<[]>;
}

export interface SettingGate {
  /** Whether the project's rendered config (its main branch's) turns the endpoint on. */
  readonly isOn: (config: RenderedConfig) => boolean;
  readonly offMessage: string;
}

/** Declares an endpoint; the literal type is kept, so its key and schemas are known to the type checker. */
export function defineEndpoint<const E extends EndpointDefinition>(endpoint: E): E {
  return endpoint;
}

/** `"GET /users/:user_id"`: how the SDK names an endpoint. */
export type EndpointKey<E extends EndpointDefinition> = `${E["method"]} ${E["path"]}`;

/** A record of endpoints (one area's module) keyed by method and path. */
export type EndpointMapOf<A extends Record<string, EndpointDefinition>> = {
  [K in keyof A as EndpointKey<A[K]>]: A[K];
};

type InputOf<S> = S extends z.ZodType ? z.input<S> : never;
type OutputOf<S> = S extends z.ZodType ? z.output<S> : never;

/** The body a caller with access type `A` sends (its JSON input form). */
export type EndpointBody<E extends EndpointDefinition, A extends AccessType> = A extends "client"
  ? E extends { clientBody: infer C }
    ? InputOf<C>
    : E extends { body: infer B }
      ? InputOf<B>
      : undefined
  : E extends { body: infer B }
    ? InputOf<B>
    : undefined;

export type EndpointParams<E extends EndpointDefinition> = E extends { params: infer P } ? InputOf<P> : undefined;
export type EndpointQuery<E extends EndpointDefinition> = E extends { query: infer Q } ? InputOf<Q> : undefined;

/** The success answer a caller with access type `A` receives. */
export type EndpointResponse<E extends EndpointDefinition, A extends AccessType> = A extends "client"
  ? E extends { clientResponse: infer C }
    ? OutputOf<C>
    : OutputOf<E["response"]>
  : OutputOf<E["response"]>;

/** Every view of the success answer: what a handler may return, whatever the caller's access. */
export type EndpointAnyResponse<E extends EndpointDefinition> =
  OutputOf<E["response"]> | (E extends { clientResponse: infer C } ? OutputOf<C> : never);

/** The wire key of an endpoint, at run time. */
export function endpointKey(endpoint: EndpointDefinition): string {
  return `${endpoint.method} ${endpoint.path}`;
}
