/**
 * Where stored images are kept. PostgreSQL by default (postgres-store.ts); a
 * store elsewhere (an S3-compatible bucket) implements the same two calls.
 * Images are named by the hash of their bytes, so `put` of an image already
 * there does nothing and nothing stored ever changes.
 */
import type { Tenancy } from "../../../db/tenancy.ts";

export interface StoredImage {
  /** SHA-256 of `bytes`, lower-case hex. */
  id: string;
  contentType: string;
  bytes: Uint8Array;
}

export interface ImageStore {
  put(scope: Tenancy, image: StoredImage): Promise<void>;
  get(scope: Tenancy, id: string): Promise<StoredImage | null>;
}
