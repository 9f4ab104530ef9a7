/** The catalogue's products: a table with each one's prices and included items, added and edited in a dialog (product-form.tsx). */
import { useState } from "react";
import { useUpdateConfig } from "../../lib/save-config.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { Card } from "../../ui/page.tsx";
import { Empty } from "../../ui/states.tsx";
import { Table } from "../../ui/table.tsx";
import { emptyProduct, includedSummary, pricesSummary, productDraft, type Payments, type ProductDraft } from "./catalogue-draft.ts";
import { ProductForm } from "./product-form.tsx";

export function ProductsCard({ payments }: { payments: Payments }) {
  const [editing, setEditing] = useState<{ draft: ProductDraft; isNew: boolean } | null>(null);
  const update = useUpdateConfig();
  const products = Object.entries(payments.products).sort(([a], [b]) => a.localeCompare(b));
  return (
    <Card
      title="Products"
      description="What customers buy or are granted: one-time or recurring prices in each currency you sell in, free trials, and the items each includes."
      actions={
        <button type="button" className="button" onClick={() => setEditing({ draft: emptyProduct(), isNew: true })}>
          Add product
        </button>
      }
    >
      <Dialog
        open={editing !== null}
        title={editing?.isNew ? "Add a product" : `Edit product ${editing?.draft.id ?? ""}`}
        onClose={() => setEditing(null)}
      >
        {editing ? <ProductForm initial={editing.draft} isNew={editing.isNew} payments={payments} onDone={() => setEditing(null)} /> : null}
      </Dialog>
      {products.length === 0 ? (
        <Empty>
          <p>No products yet. Add one, then sell it with createCheckoutUrl or grant it from your server.</p>
        </Empty>
      ) : (
        <Table columns={["Product id", "Display name", "Customer type", "Prices", "Includes"]} actions label="Products">
          {products.map(([id, product]) => (
            <tr key={id}>
              <td className="mono">
                {id}
                {product.serverOnly ? <span className="badge">server only</span> : null}
                {product.stackable ? <span className="badge">stackable</span> : null}
              </td>
              <td>{product.displayName ?? id}</td>
              <td>{product.customerType}</td>
              <td className="small">{pricesSummary(product)}</td>
              <td className="small">{includedSummary(product)}</td>
              <td>
                <div className="row-actions">
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    aria-label={`Edit product ${id}`}
                    onClick={() => setEditing({ draft: productDraft(id, product), isNew: false })}
                  >
                    Edit
                  </button>
                  <ConfirmButton
                    label="Delete"
                    ariaLabel={`Delete product ${id}`}
                    title={`Delete product ${id}?`}
                    confirmLabel="Delete product"
                    pendingLabel="Deleting…"
                    action={() => update({ [`payments.products.${id}`]: null })}
                  >
                    <p>It can no longer be bought or granted. Customers who own it keep what they bought.</p>
                  </ConfirmButton>
                </div>
              </td>
            </tr>
          ))}
        </Table>
      )}
    </Card>
  );
}
