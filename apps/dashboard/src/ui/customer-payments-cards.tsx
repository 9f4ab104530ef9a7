/**
 * A user's or a team's payments on its detail page: its products, with a
 * grant by hand, then its items, with a change by hand. A grant brings the
 * product's included items, so the items are read again after one.
 */
import { useState } from "react";
import { CustomerItemsCard } from "./customer-items-card.tsx";
import { CustomerProductsCard, type PaymentsCustomer } from "./customer-products-card.tsx";

export function CustomerPaymentsCards({ customer }: { customer: PaymentsCustomer }) {
  const [revision, setRevision] = useState(0);
  return (
    <>
      <CustomerProductsCard customer={customer} onGranted={() => setRevision((r) => r + 1)} />
      <CustomerItemsCard customer={customer} revision={revision} />
    </>
  );
}
