/**
 * An admin app's payment transactions: the project's purchases, hand-made
 * item changes and refunds, newest first, a page at a time, and refunding a
 * subscription or one-time purchase. Transactions are given as the API
 * sends them (snake_case entries), as the official SDK does.
 */
import type { TransactionJson, TransactionType } from "@latchkey/shared/api/index";
import type { CustomerType } from "@latchkey/shared/constants";
import type { AdminProjectContext } from "../models/admin-project.ts";

export type Transaction = TransactionJson;
export type TransactionEntry = TransactionJson["entries"][number];

export interface ListTransactionsOptions {
  /** The `nextCursor` of the page before. */
  cursor?: string;
  /** How many (default 50, at most 200). */
  limit?: number;
  type?: TransactionType;
  customerType?: CustomerType;
}

export interface TransactionsPage {
  transactions: Transaction[];
  /** Null on the last page. */
  nextCursor: string | null;
}

export interface RefundTransactionOptions {
  type: "subscription" | "one-time-purchase";
  /** The subscription's or one-time purchase's id: its purchase transaction's id. */
  id: string;
  /** Per product grant entry of that transaction: the quantity taken back and the dollars given back (`"12.50"`). */
  refundEntries: { entryIndex: number; quantity: number; amountUsd: string }[];
  /**
   * Give back everything the purchase charged, in the currency it was charged in (each `amountUsd` then "0"):
   * the only way to give money back for a purchase charged in another currency than USD.
   */
  fullRefund?: boolean;
}

export class AdminTransactions {
  constructor(private readonly context: AdminProjectContext) {}

  private get asAdmin() {
    return { accessType: "admin", adminSession: this.context.adminSession } as const;
  }

  async listTransactions(options: ListTransactionsOptions = {}): Promise<TransactionsPage> {
    const body = await this.context.api.call("GET /internal/payments/transactions", {
      ...this.asAdmin,
      query: {
        cursor: options.cursor,
        limit: options.limit === undefined ? undefined : String(options.limit),
        type: options.type,
        customer_type: options.customerType,
      },
    });
    return { transactions: body.transactions, nextCursor: body.next_cursor };
  }

  /** Refunds it: what it granted is revoked at once; money goes back only for a paid purchase. */
  async refundTransaction(options: RefundTransactionOptions): Promise<void> {
    await this.context.api.call("POST /internal/payments/transactions/refund", {
      ...this.asAdmin,
      body: {
        type: options.type,
        id: options.id,
        refund_entries: options.refundEntries.map((entry) => ({
          entry_index: entry.entryIndex,
          quantity: entry.quantity,
          amount_usd: entry.amountUsd,
        })),
        ...(options.fullRefund === undefined ? {} : { full_refund: options.fullRefund }),
      },
    });
  }
}
