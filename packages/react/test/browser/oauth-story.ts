/**
 * What the OAuth browser stories (oauth*.test.ts) start with: a Latchkey
 * server whose shared GitHub and Google go to the development OpenID
 * provider (apps/dev-oidc-provider, its own process; the MOCK set-up of
 * `npm run demo`), a project with both on, the demo app in Chromium; and the
 * steps they share. At the provider's sign-in page any e-mail counts as
 * verified and names the provider account.
 */
import { serve } from "@hono/node-server";
import { OAUTH_PROVIDER_IDS } from "@latchkey/shared";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { createSdkProject, type SdkProject } from "../../../js/test/server/fixtures.ts";
import { createTestServer, freePort, type TestServer } from "../../../server/test/harness.ts";
import { startDevProviderProcess, type DevProviderProcess } from "../../../server/test/oauth-fixtures.ts";
import { repoRoot, startDemoApp, type DemoApp } from "./demo-app.ts";

export const screenshots = join(repoRoot, "test-artifacts");

export interface OAuthStory {
  provider: DevProviderProcess;
  server: TestServer;
  project: SdkProject;
  demo: DemoApp;
  /** The demo app on localhost: the project trusts localhost as a redirect target. */
  demoUrl: string;
  close(): Promise<void>;
}

/** The story of the test file (each file runs in a module of its own): set by startOAuthStory. */
let story: OAuthStory | null = null;

function current(): OAuthStory {
  if (!story) throw new Error("startOAuthStory() has not run.");
  return story;
}

/** A port free now, for the server, which must know its public URL (the provider's callbacks) before it starts. */
export async function startOAuthStory(): Promise<OAuthStory> {
  const apiUrl = `http://127.0.0.1:${await freePort()}`;
  const provider = await startDevProviderProcess(apiUrl);
  const stops: (() => Promise<unknown>)[] = [() => provider.close()];
  const close = async () => {
    for (const stop of stops.reverse()) await stop();
  };
  try {
    // What STACK_OAUTH_MOCK_URL and STACK_<PROVIDER>_CLIENT_ID/SECRET=MOCK make of the server's configuration.
    const server = await createTestServer({
      apiUrl,
      oauthMockUrl: provider.url,
      sharedOAuthCredentials: Object.fromEntries(OAUTH_PROVIDER_IDS.map((id) => [id, { kind: "mock" as const }])),
    });
    stops.push(() => server.close());
    const http = serve({ fetch: server.instance.app.fetch, port: Number(new URL(apiUrl).port), hostname: "127.0.0.1" });
    stops.push(() => new Promise((resolve) => http.close(resolve)));
    await new Promise<void>((resolve) => http.once("listening", () => resolve()));
    const project = await createSdkProject(apiUrl, {
      oauthProviders: [
        { id: "github", type: "shared" },
        { id: "google", type: "shared" },
      ],
      oauthAccountMergeStrategy: "raise_error",
    });
    const demo = await startDemoApp({
      VITE_LATCHKEY_API_URL: apiUrl,
      VITE_LATCHKEY_PROJECT_ID: project.id,
      VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey,
    });
    stops.push(() => demo.close());
    mkdirSync(screenshots, { recursive: true });
    story = { provider, server, project, demo, demoUrl: demo.url.replace("://127.0.0.1:", "://localhost:"), close };
    return story;
  } catch (error) {
    await close();
    throw error;
  }
}

export const onProviderPage = (page: Page) => page.waitForURL((url) => url.href.startsWith(`${current().provider.url}/interaction/`));
export const onPath = (page: Page, path: string) => page.waitForURL((url) => url.origin === current().demoUrl && url.pathname === path);

/** On the provider's sign-in page: signs in as `email`. */
export async function signInAtProvider(page: Page, email: string, name = ""): Promise<void> {
  await onProviderPage(page);
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Name (optional)").fill(name);
  await page.getByRole("button", { name: "Continue" }).click();
}

export async function signOut(page: Page): Promise<void> {
  await page.goto(`${current().demoUrl}/`);
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await page.getByRole("link", { name: "Sign in" }).waitFor();
}

export const connectedAccounts = (page: Page) => page.getByRole("region", { name: "Connected accounts", exact: true });
