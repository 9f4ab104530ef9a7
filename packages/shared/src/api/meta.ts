/**
 * About the API itself: the welcome at its root, its OpenAPI document, the
 * public keys that verify a project's access tokens, and the answer to a
 * client asking whether a feature is supported.
 */
import { z } from "zod";
import { defineEndpoint } from "./endpoint.ts";
import { booleanQuery } from "./json.ts";

/** One public key of a JSON Web Key Set: a P-256 key for ES256 signatures. */
export const jwkJson = z.strictObject({
  alg: z.literal("ES256"),
  crv: z.literal("P-256"),
  kid: z.string(),
  kty: z.literal("EC"),
  x: z.string(),
  y: z.string(),
});
export type JwkJson = z.infer<typeof jwkJson>;

export const jwksJson = z.strictObject({ keys: z.array(jwkJson) });
export type JwksJson = z.infer<typeof jwksJson>;

/** Restricted users' keys come with `include_restricted`; anonymous users' keys (and restricted ones) with `include_anonymous`. */
export const jwksQuery = z.strictObject({ include_restricted: booleanQuery.optional(), include_anonymous: booleanQuery.optional() });

/** The OpenAPI 3.1 document: its top level exactly, the operations and schemas inside as written. */
export const openApiDocumentJson = z.strictObject({
  openapi: z.string(),
  info: z.strictObject({ title: z.string(), version: z.string(), description: z.string() }),
  servers: z.array(z.strictObject({ url: z.string() })),
  components: z.strictObject({
    schemas: z.record(z.string(), z.unknown()),
    securitySchemes: z.record(z.string(), z.unknown()),
  }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
});
export type OpenApiDocumentJson = z.infer<typeof openApiDocumentJson>;

/**
 * What a client sends when it meets a feature this server lacks: the
 * feature's name, and whatever else it knows (kept loose: clients add their
 * own keys).
 */
export const checkFeatureSupportBody = z.looseObject({ feature_name: z.string().optional() }).optional();
export type CheckFeatureSupportBody = z.input<typeof checkFeatureSupportBody>;

const projectParams = z.strictObject({ project_id: z.string() });

export const metaEndpoints = {
  root: defineEndpoint({
    method: "GET",
    path: "/",
    summary: "Welcome and authentication check",
    tags: ["Meta"],
    access: "public",
    response: z.string(),
    responseType: "text",
  }),
  openApiDocument: defineEndpoint({
    method: "GET",
    path: "/openapi.json",
    summary: "This API's OpenAPI document",
    tags: ["Meta"],
    access: "public",
    response: openApiDocumentJson,
  }),
  jwks: defineEndpoint({
    method: "GET",
    path: "/projects/:project_id/.well-known/jwks.json",
    summary: "JSON Web Key Set of the project's access tokens (unknown project: 404 in plain text)",
    tags: ["Tokens"],
    access: "public",
    params: projectParams,
    query: jwksQuery,
    response: jwksJson,
  }),
  anonymousJwks: defineEndpoint({
    method: "GET",
    path: "/projects-anonymous-users/:project_id/.well-known/jwks.json",
    summary: "Redirects to the project's JWKS with include_anonymous=true",
    tags: ["Tokens"],
    access: "public",
    params: projectParams,
    status: 307,
    responseType: "redirect",
    response: z.string().regex(/^\/api\/(v1|latest)\/projects\/[^/]+\/\.well-known\/jwks\.json\?include_anonymous=true$/),
  }),
  checkFeatureSupport: defineEndpoint({
    method: "POST",
    path: "/check-feature-support",
    summary: "A sentence telling a client that the feature it names is not supported yet (plain text)",
    tags: ["Meta"],
    access: "public",
    body: checkFeatureSupportBody,
    response: z.string(),
    responseType: "text",
  }),
};
