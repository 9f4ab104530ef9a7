import { StatusError, imagesEndpoints } from "@latchkey/shared";
import { responseHeaders } from "../../../../../../http/response.ts";
import { defineRoute } from "../../../../../../http/route.ts";
import { findImage } from "../../../../domain/host.ts";

/**
 * The address is the content's hash, so what it answers never changes: it may
 * be cached for good. (`nosniff`, on every answer, keeps a browser to the stored type.)
 */
const IMAGE_HEADERS = { "cache-control": "public, max-age=31536000, immutable" };

export default [
  defineRoute(imagesEndpoints.getImage, async ({ params, services }) => {
    const image = await findImage(services, { projectId: params.project_id, branchId: params.branch_id }, params.image_id);
    if (!image) throw new StatusError(404, "No image is stored at this address.");
    return new Response(new Uint8Array(image.bytes), { status: 200, headers: responseHeaders(image.contentType, IMAGE_HEADERS) });
  }),
];
