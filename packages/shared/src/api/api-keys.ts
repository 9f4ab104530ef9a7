/**
 * Internal (project) API keys: full values once, in the answer that creates
 * them; afterwards only their last four characters.
 */
import { z } from "zod";
import { KnownErrors } from "../known-errors/index.ts";
import { uuidSchema } from "../schema-fields.ts";
import { defineEndpoint } from "./endpoint.ts";
import { listJson } from "./json.ts";

const lastFourJson = z.strictObject({ last_four: z.string() });

/** A set of project keys as listed: each key by its last four characters; the dates only when set. */
export const internalApiKeyJson = z.strictObject({
  created_at_millis: z.number(),
  description: z.string(),
  expires_at_millis: z.number().optional(),
  id: z.string(),
  manually_revoked_at_millis: z.number().optional(),
  publishable_client_key: lastFourJson.optional(),
  secret_server_key: lastFourJson.optional(),
  super_secret_admin_key: lastFourJson.optional(),
});
export type InternalApiKeyJson = z.infer<typeof internalApiKeyJson>;

/** The answer that creates a set of keys: the requested keys in full. */
export const internalApiKeyFirstViewJson = z.strictObject({
  created_at_millis: z.number(),
  description: z.string(),
  expires_at_millis: z.number(),
  id: z.string(),
  publishable_client_key: z.string().optional(),
  secret_server_key: z.string().optional(),
  super_secret_admin_key: z.string().optional(),
});
export type InternalApiKeyFirstViewJson = z.infer<typeof internalApiKeyFirstViewJson>;

export const internalApiKeyCreateBody = z.strictObject({
  description: z.string().max(1000),
  expires_at_millis: z.number().int().min(0),
  has_publishable_client_key: z.boolean(),
  has_secret_server_key: z.boolean(),
  has_super_secret_admin_key: z.boolean(),
});
export type InternalApiKeyCreateBody = z.input<typeof internalApiKeyCreateBody>;

/** Revoking is one way: `revoked: false` on a revoked key is refused. */
export const internalApiKeyPatchBody = z.strictObject({
  description: z.string().max(1000).optional(),
  revoked: z.boolean().optional(),
});
export type InternalApiKeyPatchBody = z.input<typeof internalApiKeyPatchBody>;

const apiKeyParams = z.strictObject({ api_key_id: uuidSchema });

export const internalApiKeysEndpoints = {
  createInternalApiKey: defineEndpoint({
    method: "POST",
    path: "/internal/api-keys",
    summary: "Create project keys; their full values are shown only in this response",
    tags: ["API keys"],
    access: ["admin"],
    body: internalApiKeyCreateBody,
    response: internalApiKeyFirstViewJson,
  }),
  listInternalApiKeys: defineEndpoint({
    method: "GET",
    path: "/internal/api-keys",
    summary: "List the project's keys, newest first (last four characters only)",
    tags: ["API keys"],
    access: ["admin"],
    response: listJson(internalApiKeyJson),
  }),
  getInternalApiKey: defineEndpoint({
    method: "GET",
    path: "/internal/api-keys/:api_key_id",
    summary: "Get one set of project keys",
    tags: ["API keys"],
    access: ["admin"],
    params: apiKeyParams,
    response: internalApiKeyJson,
    errors: [KnownErrors.ApiKeyNotFound],
  }),
  updateInternalApiKey: defineEndpoint({
    method: "PATCH",
    path: "/internal/api-keys/:api_key_id",
    summary: "Change the description, or revoke (one way: revoked keys stay revoked)",
    tags: ["API keys"],
    access: ["admin"],
    params: apiKeyParams,
    body: internalApiKeyPatchBody,
    response: internalApiKeyJson,
    errors: [KnownErrors.ApiKeyNotFound],
  }),
};
