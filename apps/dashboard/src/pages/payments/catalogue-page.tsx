/**
 * What the project sells, as its config holds it (`payments.*`): items
 * (what customers have a quantity of), product lines (products a customer
 * owns at most one of) and products with their prices and included items.
 * Every change is written to the environment's override, as the other
 * settings pages write theirs; the server refuses what the catalogue's rules
 * do not allow and the form says why.
 */
import { useConfig } from "@latchkey/react";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { Page } from "../../ui/page.tsx";
import { ItemsCard } from "./items-card.tsx";
import { ProductLinesCard } from "./product-lines-card.tsx";
import { ProductsCard } from "./products-card.tsx";
import "./payments.css";

export default function CataloguePage() {
  const project = useCurrentProject();
  const payments = useConfig(project).payments;
  return (
    <Page
      title="Products and items"
      description="Items are what your customers have a quantity of (credits, seats); products are what they buy or are granted, with prices and the items they include."
    >
      <ItemsCard payments={payments} />
      <ProductsCard payments={payments} />
      <ProductLinesCard payments={payments} />
    </Page>
  );
}
