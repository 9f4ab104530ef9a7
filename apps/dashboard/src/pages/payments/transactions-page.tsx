/**
 * The project's payment transactions, newest first: purchases (a product
 * granted, and the money when it was paid), items changed by hand,
 * subscription cancellations and refunds. Filtered by type and customer type; "Load more" reads the next
 * page by its cursor. A purchase that is not in test mode and not yet
 * refunded can be refunded: what it granted is revoked at once, and, when
 * it was paid, its whole amount goes back.
 */
import { useState, type ReactNode } from "react";
import { Link } from "react-router";
import type { StackAdminApp, Transaction, TransactionEntry } from "@latchkey/js";
import { useAdminApp, useCurrentProject } from "../../lib/owned-projects.tsx";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { ActionStatus, Empty, Loaded } from "../../ui/states.tsx";
import { Table } from "../../ui/table.tsx";
import "./transactions.css";

type TypeFilter = "" | "purchase" | "manual-item-quantity-change" | "refund" | "subscription-cancellation";
type CustomerFilter = "" | "user" | "team" | "custom";

const TYPE_LABELS: Record<Transaction["type"], string> = {
  purchase: "Purchase",
  "manual-item-quantity-change": "Item change",
  refund: "Refund",
  "subscription-renewal": "Renewal",
  "subscription-cancellation": "Cancellation",
  chargeback: "Chargeback",
  "product-change": "Product change",
};

const PAGE_SIZE = 50;

export default function TransactionsPage() {
  const app = useAdminApp();
  const [type, setType] = useState<TypeFilter>("");
  const [customerType, setCustomerType] = useState<CustomerFilter>("");
  const [round, setRound] = useState(0);
  return (
    <Page
      title="Transactions"
      description="Every purchase, cancellation, refund and hand-made item change of this project, newest first."
      actions={
        <button type="button" className="button button-secondary" onClick={() => setRound((r) => r + 1)}>
          Refresh
        </button>
      }
    >
      <Card>
        <div className="transactions-toolbar">
          <Filter label="Type" id="transactions-type" value={type} onChange={(v) => setType(v as TypeFilter)}>
            <option value="">All types</option>
            <option value="purchase">Purchases</option>
            <option value="refund">Refunds</option>
            <option value="subscription-cancellation">Cancellations</option>
            <option value="manual-item-quantity-change">Item changes</option>
          </Filter>
          <Filter
            label="Customer type"
            id="transactions-customer-type"
            value={customerType}
            onChange={(v) => setCustomerType(v as CustomerFilter)}
          >
            <option value="">All customers</option>
            <option value="user">Users</option>
            <option value="team">Teams</option>
            <option value="custom">Custom</option>
          </Filter>
        </div>
        {/* A new filter (or a refresh) starts over from the first page. */}
        <TransactionsList
          key={`${type}|${customerType}|${round}`}
          app={app}
          type={type}
          customerType={customerType}
          onChanged={() => setRound((r) => r + 1)}
        />
      </Card>
    </Page>
  );
}

function Filter({
  label,
  id,
  value,
  onChange,
  children,
}: {
  label: string;
  id: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  return (
    <div className="transactions-filter">
      <label htmlFor={id}>{label}</label>
      <select id={id} className="input" value={value} onChange={(e) => onChange(e.target.value)}>
        {children}
      </select>
    </div>
  );
}

function TransactionsList({
  app,
  type,
  customerType,
  onChanged,
}: {
  app: StackAdminApp;
  type: TypeFilter;
  customerType: CustomerFilter;
  onChanged: () => void;
}) {
  const filters = { limit: PAGE_SIZE, type: type || undefined, customerType: customerType || undefined };
  const first = useLoad(() => app.listTransactions(filters), [app]);
  const [more, setMore] = useState<{ transactions: Transaction[]; nextCursor: string | null } | null>(null);
  const loadMore = useAction(async (cursor: string) => {
    const page = await app.listTransactions({ ...filters, cursor });
    setMore((before) => ({ transactions: [...(before?.transactions ?? []), ...page.transactions], nextCursor: page.nextCursor }));
  });
  return (
    <Loaded load={first} label="Loading transactions…">
      {(page) => {
        const rows = [...page.transactions, ...(more?.transactions ?? [])];
        const nextCursor = more ? more.nextCursor : page.nextCursor;
        if (rows.length === 0)
          return (
            <Empty>
              <p>
                {type || customerType ? "No transactions match." : "No transactions yet. Purchases, refunds and item changes show up here."}
              </p>
            </Empty>
          );
        return (
          <>
            <div className="transactions-scroll">
              <Table
                className="transactions-table"
                label="Transactions"
                columns={["When", "Type", "Customer", "What", "Amount", "Test mode"]}
                actions
              >
                {rows.map((transaction) => (
                  <TransactionRow key={transaction.id} app={app} transaction={transaction} onRefunded={onChanged} />
                ))}
              </Table>
            </div>
            <ActionStatus error={loadMore.error} />
            {nextCursor ? (
              <div className="transactions-more">
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={loadMore.pending}
                  onClick={() => void loadMore.run(nextCursor)}
                >
                  {loadMore.pending ? "Loading…" : "Load more"}
                </button>
              </div>
            ) : null}
          </>
        );
      }}
    </Loaded>
  );
}

function TransactionRow({ app, transaction, onRefunded }: { app: StackAdminApp; transaction: Transaction; onRefunded: () => void }) {
  const customerEntry = transaction.entries.find((e) => "customer_id" in e) as
    Extract<TransactionEntry, { customer_id: string }> | undefined;
  const grant = transaction.entries.find((e) => e.type === "product_grant");
  // A cancellation also adjusts a subscription's grant, but leaves it refundable until it ends.
  const refunded = transaction.adjusted_by.some((adjustment) => !adjustment.transaction_id.endsWith(":cancellation"));
  return (
    <tr>
      <td className="nowrap">
        {new Date(transaction.created_at_millis).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" })}
      </td>
      <td>
        {TYPE_LABELS[transaction.type]}
        {refunded ? <span className="badge badge-warning"> Refunded</span> : null}
      </td>
      <td>{customerEntry ? <CustomerCell type={customerEntry.customer_type} id={customerEntry.customer_id} /> : "—"}</td>
      <td>{transaction.entries.map(describeEntry).filter(Boolean).join("; ") || "—"}</td>
      <td className="nowrap">{amountOf(transaction) ?? "—"}</td>
      <td>{transaction.test_mode ? "Yes" : "No"}</td>
      <td>
        {grant && transaction.type === "purchase" && !transaction.test_mode && !refunded ? (
          <RefundButton app={app} transaction={transaction} grant={grant} onRefunded={onRefunded} />
        ) : null}
      </td>
    </tr>
  );
}

function CustomerCell({ type, id }: { type: "user" | "team" | "custom"; id: string }) {
  const project = useCurrentProject();
  if (type === "custom") return <span>Custom: {id}</span>;
  return (
    <Link to={`/projects/${project.id}/${type === "user" ? "users" : "teams"}/${id}`}>
      {type === "user" ? "User" : "Team"} {id.slice(0, 8)}
    </Link>
  );
}

function describeEntry(entry: TransactionEntry): string {
  switch (entry.type) {
    case "product_grant":
      return `${entry.product.display_name} × ${entry.quantity}`;
    case "item_quantity_change":
      return `${entry.item_id} ${entry.quantity >= 0 ? "+" : ""}${entry.quantity}`;
    case "product_revocation":
      return `Revoked ${entry.quantity}`;
    case "product_revocation_reversal":
      return `Restored ${entry.quantity}`;
    case "money_transfer":
      return "";
  }
}

/** The money moved: each currency's charged amount (negative: given back). */
function amountOf(transaction: Transaction): string | null {
  const money = transaction.entries.find((e) => e.type === "money_transfer");
  if (!money) return null;
  const amounts = Object.entries(money.charged_amount).map(([currency, amount]) => `${amount} ${currency}`);
  return amounts.length > 0 ? amounts.join(", ") : null;
}

/**
 * What a refund gives back: everything paid. A purchase paid in USD names it in dollars; one paid in another
 * currency (the only one its net amount lists) can only be refunded in full.
 */
function refundOf(transaction: Transaction): { amount: string; currency: string; fullRefund: boolean } {
  const money = transaction.entries.find((e) => e.type === "money_transfer");
  const currency = money ? (Object.keys(money.net_amount)[0] ?? "USD") : "USD";
  const paid = money?.charged_amount[currency];
  const amount = paid && !paid.startsWith("-") ? paid : "0";
  return { amount, currency, fullRefund: currency !== "USD" && amount !== "0" };
}

function RefundButton({
  app,
  transaction,
  grant,
  onRefunded,
}: {
  app: StackAdminApp;
  transaction: Transaction;
  grant: Extract<TransactionEntry, { type: "product_grant" }>;
  onRefunded: () => void;
}) {
  const refund = refundOf(transaction);
  return (
    <ConfirmButton
      label="Refund"
      ariaLabel={`Refund ${grant.product.display_name}`}
      title={`Refund ${grant.product.display_name}?`}
      confirmLabel="Refund"
      pendingLabel="Refunding…"
      action={async () => {
        await app.refundTransaction({
          type: grant.subscription_id ? "subscription" : "one-time-purchase",
          id: transaction.id,
          refundEntries: [
            {
              entryIndex: transaction.entries.indexOf(grant),
              quantity: grant.quantity,
              amountUsd: refund.fullRefund ? "0" : refund.amount,
            },
          ],
          ...(refund.fullRefund ? { fullRefund: true } : {}),
        });
        onRefunded();
      }}
    >
      <p>
        The customer loses {grant.product.display_name} (× {grant.quantity}) now, and with it the included items that last only while it is
        owned.
        {refund.amount !== "0"
          ? ` ${refund.amount} ${refund.currency} goes back to them.`
          : " It was not paid for, so no money goes back."}{" "}
        This cannot be undone.
      </p>
    </ConfirmButton>
  );
}
