/**
 * Images this server stores and serves: pictures and logos written as
 * `data:` URLs are kept by us and answered as the address below, named by a
 * hash of their content (so it never changes and may be cached for good).
 */
import { z } from "zod";
import { IMAGE_CONTENT_TYPES } from "../image-data-url.ts";
import { branchIdSchema, projectIdSchema } from "../schema-fields.ts";
import { defineEndpoint } from "./endpoint.ts";

/** A stored image's id: the SHA-256 of its bytes, in lower-case hex. */
export const imageIdSchema = z
  .string()
  .refine((v) => /^[0-9a-f]{64}$/.test(v), { message: "must be an image id (64 lower-case hex digits)" });

export const imagesEndpoints = {
  getImage: defineEndpoint({
    method: "GET",
    path: "/images/:project_id/:branch_id/:image_id",
    summary: "An image stored from a data: URL (a profile picture or a logo), by its content hash",
    tags: ["Images"],
    access: "public",
    params: z.strictObject({ project_id: projectIdSchema, branch_id: branchIdSchema, image_id: imageIdSchema }),
    /** The answer's Content-Type. */
    response: z.enum(IMAGE_CONTENT_TYPES),
    responseType: "binary",
  }),
};
