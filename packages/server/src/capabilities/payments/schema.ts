import { sql } from "drizzle-orm";
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tenancyColumns } from "../../db/schema/projects.ts";

/**
 * The item ledger's hand-made entries: each grant (positive) or removal
 * (negative) of an item for a customer, by the API, the SDK or the
 * dashboard. A customer's quantity is these replayed in order together with
 * what their products include (domain/ledger.ts); nothing here is ever
 * updated, so the history is the audit trail. The customer is a user or team
 * id, or the app's own id for a custom customer, hence text and no foreign
 * key: a deleted user's or team's entries are removed with them
 * (domain/customers.ts). `idempotency_key` makes a retried request apply once
 * (the unique index; keys are per customer and item).
 */
export const paymentItemChanges = pgTable(
  "payment_item_changes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ...tenancyColumns(),
    customerType: text("customer_type", { enum: ["user", "team", "custom"] }).notNull(),
    customerId: text("customer_id").notNull(),
    itemId: text("item_id").notNull(),
    quantity: integer("quantity").notNull(),
    /** When what is left of a grant stops counting; null: never. */
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    description: text("description"),
    idempotencyKey: text("idempotency_key"),
    createdAt: timestamp("created_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (t) => [
    index("payment_item_changes_customer_idx").on(t.projectId, t.branchId, t.customerType, t.customerId, t.itemId, t.createdAt),
    uniqueIndex("payment_item_changes_idempotency_idx")
      .on(t.projectId, t.branchId, t.customerType, t.customerId, t.itemId, t.idempotencyKey)
      .where(sql`${t.idempotencyKey} IS NOT NULL`),
  ],
);

export type PaymentItemChangeRow = typeof paymentItemChanges.$inferSelect;

export * from "./account-schema.ts";
