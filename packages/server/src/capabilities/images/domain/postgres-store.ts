import { and, eq } from "drizzle-orm";
import type { Db } from "../../../db/connect.ts";
import { inTenancy } from "../../../db/tenancy.ts";
import { storedImages } from "../schema.ts";
import type { ImageStore } from "./image-store.ts";

/** The image store in the server's own database (schema.ts). */
export function postgresImageStore(db: Db): ImageStore {
  return {
    async put(scope, image) {
      await db
        .insert(storedImages)
        .values({ ...scope, id: image.id, contentType: image.contentType, bytes: image.bytes })
        .onConflictDoNothing();
    },
    async get(scope, id) {
      const [row] = await db
        .select({ id: storedImages.id, contentType: storedImages.contentType, bytes: storedImages.bytes })
        .from(storedImages)
        .where(and(inTenancy(storedImages, scope), eq(storedImages.id, id)));
      return row ?? null;
    },
  };
}
