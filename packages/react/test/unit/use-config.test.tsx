/**
 * useConfig reads the rendered config from the entry the SDK hands out: the
 * given project's, else the admin app's in <StackProvider>; any other app is
 * refused with a sentence saying what the hook needs.
 */
import { StackAdminApp, StackClientApp, type AdminProject, type CompleteConfig } from "@latchkey/js";
import { prerender } from "react-dom/static";
import { Suspense } from "react";
import { describe, expect, it } from "vitest";
import { CachedQuery, CacheStore } from "../../../js/src/cache/index.ts";
import { StackProvider, useConfig } from "../../src/index.ts";

const store = new CacheStore();
let reads = 0;
const config = new CachedQuery(store, "config", async () => {
  reads += 1;
  return { auth: { allowSignUp: false } } as unknown as CompleteConfig;
});
/** A project as far as the hook reads it. */
const project = { _configEntry: () => config.entry() } as unknown as AdminProject;

const client = new StackClientApp({ projectId: "p", tokenStore: "memory", baseUrl: "http://127.0.0.1:9" });

function SignUp({ of }: { of?: AdminProject }) {
  return <p>{`sign-up ${String(useConfig(of).auth.allowSignUp)}`}</p>;
}

async function html(node: React.ReactNode, app: StackClientApp): Promise<string> {
  const { prelude } = await prerender(
    <StackProvider app={app}>
      <Suspense fallback={<p>Loading</p>}>{node}</Suspense>
    </StackProvider>,
  );
  return (await new Response(prelude).text()).replace(/<!--[^>]*-->/g, "");
}

describe("useConfig", () => {
  it("reads the given project's config, shared with its other readers", async () => {
    expect(await html(<SignUp of={project} />, client)).toBe("<p>sign-up false</p>");
    // A second reader shows the value already read.
    expect(await html(<SignUp of={project} />, client)).toBe("<p>sign-up false</p>");
    expect(reads).toBe(1);
  });

  it("reads the admin app's config when no project is given", async () => {
    const admin = new StackAdminApp({ projectId: "p", superSecretAdminKey: "k", tokenStore: null, baseUrl: "http://127.0.0.1:9" });
    (admin as unknown as { _configEntry: () => unknown })._configEntry = () => config.entry();
    expect(await html(<SignUp />, admin)).toBe("<p>sign-up false</p>");
  });

  it("asks for an admin app when neither gives a config", async () => {
    // Outside a Suspense boundary, so the error reaches prerender rather than being left to the browser.
    await expect(
      prerender(
        <StackProvider app={client}>
          <SignUp />
        </StackProvider>,
      ),
    ).rejects.toThrow(/useConfig\(\) needs an admin app/);
  });
});
