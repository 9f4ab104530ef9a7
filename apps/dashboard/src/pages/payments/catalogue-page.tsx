/**
 * What the project sells, as its config holds it (`payments.*`): items
 * (what customers have a quantity of), product lines (products a customer
 * owns at most one of) and products with their prices and included items.
 * Every change is written to the environment's override, as the other
 * settings pages write theirs; the server refuses what the catalogue's rules
 * do not allow and the form says why. A name that does not resolve (a
 * product including an item deleted since) is stored, and listed at the top.
 */
import { paymentsCatalogueProblems } from "@latchkey/shared";
import { useConfig } from "@latchkey/react";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { ItemsCard } from "./items-card.tsx";
import { ProductLinesCard } from "./product-lines-card.tsx";
import { ProductsCard } from "./products-card.tsx";
import "./payments.css";

export default function CataloguePage() {
  const project = useCurrentProject();
  const config = useConfig(project);
  const payments = config.payments;
  // Names that do not resolve are stored (a product may be written before its item); they are said here.
  const problems = paymentsCatalogueProblems(config).filter((problem) => !problem.refused);
  return (
    <Page
      title="Products and items"
      description="Items are what your customers have a quantity of (credits, seats); products are what they buy or are granted, with prices and the items they include."
    >
      {problems.length > 0 ? (
        <Card
          title="Catalogue problems"
          description="Purchases skip what these name until it exists. Add what is missing, or change the product."
        >
          <ul role="alert" className="catalogue-problems">
            {problems.map((problem) => (
              <li key={problem.path} className="mono small">
                {problem.message}
              </li>
            ))}
          </ul>
        </Card>
      ) : null}
      <ItemsCard payments={payments} />
      <ProductsCard payments={payments} />
      <ProductLinesCard payments={payments} />
    </Page>
  );
}
