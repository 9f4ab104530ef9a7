import { index, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { tenancyColumns } from "../../db/schema/projects.ts";

/**
 * The data vault's values, one per hashed key per store of a tenancy. What
 * the SDK sent is already encrypted by the app (the server never holds its
 * secret); at rest it is sealed once more, with a data key of its own that
 * is kept wrapped under a key-encryption key (domain/envelope.ts), named by
 * `key_id` so a rotation finds what is still under an old one (the index).
 * Rows go with their project.
 */
export const dataVaultValues = pgTable(
  "data_vault_values",
  {
    ...tenancyColumns(),
    storeId: text("store_id").notNull(),
    hashedKey: text("hashed_key").notNull(),
    /** The key-encryption key that wrapped `wrapped_data_key` (domain/sealer.ts). */
    keyId: text("key_id").notNull(),
    wrappedDataKey: text("wrapped_data_key").notNull(),
    /** The value the SDK sent, sealed under the data key. */
    sealedValue: text("sealed_value").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.branchId, t.storeId, t.hashedKey] }), index("data_vault_values_key_id_idx").on(t.keyId)],
);
