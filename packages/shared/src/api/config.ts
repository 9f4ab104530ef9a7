/**
 * The config API: the rendered config, each level's stored
 * override, and the branch's source. Config travels as a JSON string; a
 * refused override is answered with a plain-text 400 (config/validate.ts).
 */
import { z } from "zod";
import { CONFIG_LEVELS } from "../config/schema.ts";
import { defineEndpoint } from "./endpoint.ts";
import { successJson } from "./json.ts";

/** Where the branch's config came from; a fresh project's is `unlinked`. */
export const configSourceJson = z.union([
  z.strictObject({
    type: z.literal("pushed-from-github"),
    owner: z.string(),
    repo: z.string(),
    branch: z.string(),
    commit_hash: z.string(),
    config_file_path: z.string(),
  }),
  z.strictObject({ type: z.literal("pushed-from-unknown") }),
  z.strictObject({ type: z.literal("unlinked") }),
]);
export type ConfigSourceJson = z.infer<typeof configSourceJson>;

const levelParams = z.strictObject({ level: z.enum(CONFIG_LEVELS) });
const resetLevelParams = z.strictObject({ level: z.enum(["branch", "environment"]) });
const configStringJson = z.strictObject({ config_string: z.string() });

export const configEndpoints = {
  getConfig: defineEndpoint({
    method: "GET",
    path: "/internal/config",
    summary: "The rendered config of the current project and branch",
    tags: ["Config"],
    access: ["admin"],
    response: configStringJson,
  }),
  getConfigOverride: defineEndpoint({
    method: "GET",
    path: "/internal/config/override/:level",
    summary: "One level's override as stored (`{}` when none)",
    tags: ["Config"],
    access: ["server", "admin"],
    params: levelParams,
    response: configStringJson,
  }),
  replaceConfigOverride: defineEndpoint({
    method: "PUT",
    path: "/internal/config/override/:level",
    summary: "Replace one level's override (the branch level needs a source)",
    tags: ["Config"],
    access: ["server", "admin"],
    params: levelParams,
    body: z.strictObject({ config_string: z.string(), source: configSourceJson.optional() }),
    response: successJson,
  }),
  updateConfigOverride: defineEndpoint({
    method: "PATCH",
    path: "/internal/config/override/:level",
    summary: "Write keys over one level's override",
    tags: ["Config"],
    access: ["server", "admin"],
    params: levelParams,
    body: z.strictObject({ config_override_string: z.string() }),
    response: successJson,
  }),
  resetConfigOverrideKeys: defineEndpoint({
    method: "POST",
    path: "/internal/config/override/:level/reset-keys",
    summary: "Remove keys (and what is under them) from the branch or environment override",
    tags: ["Config"],
    access: ["admin"],
    params: resetLevelParams,
    body: z.strictObject({ keys: z.array(z.string()) }),
    response: successJson,
  }),
  getConfigSource: defineEndpoint({
    method: "GET",
    path: "/internal/config/source",
    summary: "Where the branch's config came from",
    tags: ["Config"],
    access: ["admin"],
    response: z.strictObject({ source: configSourceJson }),
  }),
  unlinkConfigSource: defineEndpoint({
    method: "DELETE",
    path: "/internal/config/source",
    summary: "Unlink the branch's config from its source (its values are kept)",
    tags: ["Config"],
    access: ["admin"],
    response: successJson,
  }),
  /** The older form of PATCH …/override/environment. */
  updateEnvironmentConfigOverride: defineEndpoint({
    method: "PATCH",
    path: "/internal/config/override",
    summary: "Write keys over the environment override (older form)",
    tags: ["Config"],
    access: ["admin"],
    body: z.strictObject({ config_override_string: z.string().optional() }),
    response: successJson,
  }),
};
