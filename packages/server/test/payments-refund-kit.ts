/**
 * What the tests of refunds made in Stripe's dashboard share: the refunds a project recorded, the products a
 * user owns, the transactions list, and how such a refund is listed there.
 */
import { transactionsPageJson } from "@latchkey/shared";
import { eq } from "drizzle-orm";
import { expect } from "vitest";
import { paymentRefunds, type PaymentRefundRow } from "../src/capabilities/payments/schema.ts";
import type { Project } from "./fixtures.ts";
import type { TestServer } from "./harness.ts";

export function refundKit(server: () => TestServer) {
  /** The project's refund rows, oldest first. */
  const refundsOf = async (project: Project) =>
    (await server().instance.services.db.select().from(paymentRefunds).where(eq(paymentRefunds.projectId, project.id))).sort(
      (a, b) => a.createdAt.getTime() - b.createdAt.getTime(),
    );
  /** How many products the user owns. */
  const owns = async (project: Project, userId: string) =>
    ((await server().request(`/payments/products/user/${userId}`, { as: project.server })).body.items as unknown[]).length;

  async function transactions(project: Project, query: Record<string, string> = {}) {
    const res = await server().request("/internal/payments/transactions", { as: project.admin, query });
    expect(res.status, res.text).toBe(200);
    return transactionsPageJson.parse(res.body).transactions;
  }
  return { refundsOf, owns, transactions };
}

/** A refund made in Stripe as the transactions list shows it: money given back to the user, adjusting no entry. */
export function listedMoneyRefund(row: PaymentRefundRow, userId: string, amount: Record<string, string>) {
  return {
    id: row.id,
    type: "refund",
    created_at_millis: row.createdAt.getTime(),
    effective_at_millis: row.createdAt.getTime(),
    test_mode: false,
    entries: [
      {
        type: "money_transfer",
        adjusted_transaction_id: null,
        adjusted_entry_index: null,
        customer_type: "user",
        customer_id: userId,
        charged_amount: amount,
        net_amount: amount,
      },
    ],
    adjusted_by: [],
  };
}
