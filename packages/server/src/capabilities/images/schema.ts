import { customType, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { tenancyColumns } from "../../db/schema/projects.ts";

const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

/**
 * The images written to us as `data:` URLs (profile pictures, logos), when
 * PostgreSQL is the image store (domain/postgres-store.ts). One row per
 * content per tenancy: the id is the SHA-256 of the bytes, so writing the
 * same picture twice stores it once. Rows go with their project.
 */
export const storedImages = pgTable(
  "stored_images",
  {
    ...tenancyColumns(),
    id: text("id").notNull(),
    contentType: text("content_type").notNull(),
    bytes: bytea("bytes").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.branchId, t.id] })],
);
