/**
 * useApiKeys reads the signed-in user's API keys from the entry the SDK hands
 * out (`user._apiKeysEntry()`), the one `user.listApiKeys()` reads too, and
 * shows the list read again once the SDK invalidates it (a key created,
 * changed or revoked).
 */
import { StackClientApp, type CurrentUser, type UserApiKey } from "@latchkey/js";
import { prerender } from "react-dom/static";
import { Suspense } from "react";
import { describe, expect, it } from "vitest";
import { CachedQuery, CacheStore } from "../../../js/src/cache/index.ts";
import { StackProvider, useApiKeys } from "../../src/index.ts";

const store = new CacheStore();
let reads = 0;
let descriptions = ["CLI"];
const keys = new CachedQuery(store, "userApiKeys", async () => {
  reads += 1;
  return descriptions.map((description) => ({ description, value: { lastFour: "abcd" } }) as UserApiKey);
});
/** A user as far as the hook reads them. */
const user = { _apiKeysEntry: () => keys.entry() } as unknown as CurrentUser;

const client = new StackClientApp({ projectId: "p", tokenStore: "memory", baseUrl: "http://127.0.0.1:9" });

function Keys() {
  return (
    <ul>
      {useApiKeys(user).map((key) => (
        <li key={key.description}>{`${key.description} …${key.value.lastFour}`}</li>
      ))}
    </ul>
  );
}

async function html(): Promise<string> {
  const { prelude } = await prerender(
    <StackProvider app={client}>
      <Suspense fallback={<p>Loading</p>}>
        <Keys />
      </Suspense>
    </StackProvider>,
  );
  return (await new Response(prelude).text()).replace(/<!--[^>]*-->/g, "");
}

describe("useApiKeys", () => {
  it("reads the user's keys once for every reader, and again after an invalidation", async () => {
    expect(await html()).toBe("<ul><li>CLI …abcd</li></ul>");
    expect(await html()).toBe("<ul><li>CLI …abcd</li></ul>");
    expect(reads).toBe(1);
    descriptions = ["deploy", "CLI"];
    keys.invalidate();
    // The invalidated entry is read again in the background; readers show the new list once it is in.
    await keys.entry().get();
    expect(await html()).toBe("<ul><li>deploy …abcd</li><li>CLI …abcd</li></ul>");
    expect(reads).toBe(2);
  });
});
