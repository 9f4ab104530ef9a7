/**
 * A deleted user's or team's payments records (ledger, purchases, purchase codes, its Stripe customers,
 * purchase sessions and invoices: a later event about them finds nothing to grant) go with it, in the deletion's
 * transaction.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { DomainEvent } from "../../../events/domain-events.ts";
import type { EventTx } from "../../../events/transaction.ts";
import type { Services } from "../../../services.ts";
import {
  paymentItemChanges,
  paymentPurchaseCodes,
  paymentPurchases,
  paymentRefunds,
  paymentStripeCheckouts,
  paymentStripeCustomers,
  paymentStripeInvoices,
} from "../schema.ts";

export async function removeCustomerLedger(_services: Services, tx: EventTx, events: readonly DomainEvent[]): Promise<void> {
  for (const type of ["user", "team"] as const) {
    const gone = events.filter((event) => event.type === `${type}.deleted`);
    for (const [projectId, ids] of groupByProject(gone)) {
      for (const table of [
        paymentItemChanges,
        paymentPurchases,
        paymentPurchaseCodes,
        paymentRefunds,
        paymentStripeCustomers,
        paymentStripeCheckouts,
        paymentStripeInvoices,
      ]) {
        // tenancy: a user's or team's id is unique in its project, whichever branch the deletion was in.
        await tx.delete(table).where(and(eq(table.projectId, projectId), eq(table.customerType, type), inArray(table.customerId, ids)));
      }
    }
  }
}

/** The events' ids per project (a deletion names its project; ids are unique across branches). */
function groupByProject(events: readonly DomainEvent[]): Map<string, string[]> {
  const byProject = new Map<string, string[]>();
  for (const event of events) {
    const ids = byProject.get(event.projectId) ?? [];
    ids.push((event.data as { id: string }).id);
    byProject.set(event.projectId, ids);
  }
  return byProject;
}
