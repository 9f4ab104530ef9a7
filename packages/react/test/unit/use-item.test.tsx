/**
 * useItem reads a customer's item through the SDK's cache: by the app in
 * <StackProvider> (`useItem({ itemId, teamId })`) or by a user or team object
 * (`useItem(team, itemId)`), one read for both, and shows the quantity read
 * again after the SDK's server item changes it. The app is the real SDK; its
 * fetch answers as the server's item endpoints would.
 */
import { StackServerApp, type Item } from "@latchkey/js";
import { prerender } from "react-dom/static";
import { Suspense } from "react";
import { describe, expect, it } from "vitest";
import { StackProvider, useItem } from "../../src/index.ts";

let quantity = 2;
const requests: string[] = [];
const fetchItems: typeof fetch = async (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const method = init?.method ?? "GET";
  requests.push(`${method} ${url.pathname.replace(/^\/api\/v1/, "")}${url.search}`);
  if (method === "POST") {
    quantity += (JSON.parse(String(init?.body)) as { delta: number }).delta;
    return Response.json({});
  }
  return Response.json({ id: "seats", display_name: "Seats", quantity });
};

const app = new StackServerApp({ projectId: "p", secretServerKey: "k", baseUrl: "http://127.0.0.1:9", fetch: fetchItems });
/** A team object as far as the hook reads it: its entry is the app's entry for the team. */
const team = {
  getItem: (itemId: string) => app.getItem({ itemId, teamId: "t1" }),
  _itemEntry: (itemId: string) => app._itemEntry({ itemId, teamId: "t1" }),
};

function show(item: Item): string {
  return `${item.displayName} ${item.quantity} ${item.nonNegativeQuantity}`;
}

function Seats() {
  const viaApp = useItem<StackServerApp>({ itemId: "seats", teamId: "t1" });
  const viaTeam = useItem(team, "seats");
  return <p>{`${show(viaApp)} | ${show(viaTeam)}`}</p>;
}

async function html(): Promise<string> {
  const { prelude } = await prerender(
    <StackProvider app={app}>
      <Suspense fallback={<p>Loading</p>}>
        <Seats />
      </Suspense>
    </StackProvider>,
  );
  return (await new Response(prelude).text()).replace(/<!--[^>]*-->/g, "");
}

describe("useItem", () => {
  it("reads the item once for the app and the team alike, and again after the server item changes it", async () => {
    expect(await html()).toBe("<p>Seats 2 2 | Seats 2 2</p>");
    expect(await html()).toBe("<p>Seats 2 2 | Seats 2 2</p>");
    expect(requests).toEqual(["GET /payments/items/team/t1/seats"]);

    const item = await app.getItem({ itemId: "seats", teamId: "t1" });
    await item.decreaseQuantity(5);
    expect(requests.at(-1)).toBe("POST /payments/items/team/t1/seats/update-quantity?allow_negative=true");
    // The change invalidated the entry: it is read again, and readers show the new quantity once it is in.
    await app._itemEntry({ itemId: "seats", teamId: "t1" }).get();
    expect(await html()).toBe("<p>Seats -3 0 | Seats -3 0</p>");
    expect(requests.filter((r) => r.startsWith("GET"))).toHaveLength(2);
  });

  it("needs the item's id with a user or team", () => {
    function Missing() {
      // As plain JavaScript might call it.
      return <p>{show((useItem as unknown as (holder: typeof team) => Item)(team))}</p>;
    }
    return expect(
      prerender(
        <StackProvider app={app}>
          <Missing />
        </StackProvider>,
        // The thrown error is what this test checks; React need not log it too.
        { onError: () => {} },
      ),
    ).rejects.toThrow("needs the item's id");
  });
});
