/**
 * Turning an image written as a `data:` URL into one we serve: the image is
 * stored (image-store.ts) and the field keeps the address it is served at,
 * so reading a user or a project costs nothing more than before. Any other
 * URL is kept as it was written.
 */
import { createHash } from "node:crypto";
import { isDataUrl, parseImageDataUrl, StatusError } from "@latchkey/shared";
import type { Tenancy } from "../../../db/tenancy.ts";
import type { Services } from "../../../services.ts";

type HostServices = Pick<Services, "images" | "config">;

/** The address an image of the tenancy is served at (routes/images/…). */
export function imageUrl(apiUrl: string, scope: Tenancy, id: string): string {
  const base = apiUrl.replace(/\/+$/, "");
  return `${base}/api/v1/images/${encodeURIComponent(scope.projectId)}/${encodeURIComponent(scope.branchId)}/${id}`;
}

/** The value to store for an image field: a `data:` URL's image stored and its served address, anything else as it is. */
export async function hostImage<T extends string | null | undefined>(
  services: HostServices,
  scope: Tenancy,
  value: T,
): Promise<T | string> {
  if (typeof value !== "string" || !isDataUrl(value)) return value;
  const image = parseImageDataUrl(value);
  // The request schemas refuse these already; this keeps a caller that skipped them from storing one.
  if ("problem" in image) throw new StatusError(400, `The image ${image.problem}.`);
  const id = createHash("sha256").update(image.bytes).digest("hex");
  await services.images.put(scope, { id, contentType: image.contentType, bytes: image.bytes });
  return imageUrl(services.config.apiUrl, scope, id);
}

/** `fields` with each of `keys` that holds a `data:` URL replaced by the address of the stored image. */
export async function hostImages<F extends object, K extends keyof F>(
  services: HostServices,
  scope: Tenancy,
  fields: F,
  keys: readonly K[],
): Promise<F> {
  const out = { ...fields };
  for (const key of keys) {
    const value = out[key];
    if (typeof value === "string") out[key] = (await hostImage(services, scope, value)) as F[K];
  }
  return out;
}

/** A stored image, or null. */
export function findImage(services: Pick<Services, "images">, scope: Tenancy, id: string) {
  return services.images.get(scope, id);
}
