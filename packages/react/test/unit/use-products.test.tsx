/**
 * useProducts reads a customer's products through the SDK's cache: by the
 * app in <StackProvider> (`useProducts({ teamId })`) or by a user or team
 * object (`useProducts(team)`), one read for both, and shows the list read
 * again after the SDK grants a product. The app is the real SDK; its fetch
 * answers as the server's product endpoints would.
 */
import { StackServerApp, type CustomerProductsList } from "@latchkey/js";
import { prerender } from "react-dom/static";
import { Suspense } from "react";
import { describe, expect, it } from "vitest";
import { StackProvider, useProducts } from "../../src/index.ts";

const owned: string[] = ["pro"];
const requests: string[] = [];
const product = (name: string) => ({
  display_name: name,
  customer_type: "team",
  server_only: false,
  stackable: false,
  prices: {},
  included_items: {},
  client_metadata: null,
  client_read_only_metadata: null,
  server_metadata: null,
});
const fetchProducts: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const method = init?.method ?? "GET";
  requests.push(`${method} ${url.pathname.replace(/^\/api\/v1/, "")}${url.search}`);
  if (method === "POST") {
    owned.push((JSON.parse(String(init?.body)) as { product_id: string }).product_id);
    return Response.json({ success: true });
  }
  return Response.json({
    items: owned.map((id) => ({ id, quantity: 1, product: product(id.toUpperCase()), type: "one_time", subscription: null })),
    is_paginated: true,
    pagination: { next_cursor: null },
  });
};

const app = new StackServerApp({ projectId: "p", secretServerKey: "k", baseUrl: "http://127.0.0.1:9", fetch: fetchProducts });
/** A team object as far as the hook reads it: its entry is the app's entry for the team. */
const team = { _productsEntry: () => app._productsEntry({ teamId: "t1" }) };

function show(list: CustomerProductsList): string {
  return list.map((p) => `${p.id}:${p.displayName}`).join(",");
}

function Products() {
  const viaApp = useProducts({ teamId: "t1" });
  const viaTeam = useProducts(team);
  return <p>{`${show(viaApp)} | ${show(viaTeam)}`}</p>;
}

async function html(): Promise<string> {
  const { prelude } = await prerender(
    <StackProvider app={app}>
      <Suspense fallback={<p>Loading</p>}>
        <Products />
      </Suspense>
    </StackProvider>,
  );
  return (await new Response(prelude).text()).replace(/<!--[^>]*-->/g, "");
}

describe("useProducts", () => {
  it("reads the list once for the app and the team alike, and again after a grant", async () => {
    expect(await html()).toBe("<p>pro:PRO | pro:PRO</p>");
    expect(await html()).toBe("<p>pro:PRO | pro:PRO</p>");
    expect(requests).toEqual(["GET /payments/products/team/t1"]);

    await app.grantProduct({ teamId: "t1", productId: "seats" });
    expect(requests.at(-1)).toBe("POST /payments/products/team/t1");
    // The grant invalidated the entry: it is read again, and readers show the new list once it is in.
    await app._productsEntry({ teamId: "t1" }).get();
    expect(await html()).toBe("<p>pro:PRO,seats:SEATS | pro:PRO,seats:SEATS</p>");
    expect(requests.filter((r) => r.startsWith("GET"))).toHaveLength(2);
  });
});
