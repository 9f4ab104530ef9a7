#!/usr/bin/env node
// `npm run demo`: a Latchkey server plus the React demo app (apps/demo).
//
//   1. starts the development OpenID provider (apps/dev-oidc-provider, port
//      OIDC_PORT or 8114), so "Sign in with GitHub" works offline;
//   2. starts the server as `npm start` does (port LATCHKEY_PORT or 8102,
//      data in .latchkey/demo-data), every shared OAuth provider the developer
//      has no keys of their own for sent to that provider (MOCK credentials);
//   3. on the first run, creates a "Demo" project through the public API, as
//      a project owner would, and keeps its id and key in .latchkey/demo.json;
//      GitHub, Google and Microsoft sign-in are on (turned on once, too, for a
//      project made by an earlier version of this script);
//   4. starts Vite for apps/demo (port DEMO_PORT or 5173) pointed at the server.
//
// Ctrl-C, or any of them stopping, stops them all.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { createServer } from "vite";
import { mockOAuthEnv, startDevOidcProvider } from "./lib/dev-oidc-provider.mjs";
import {
  localApiUrl,
  newInternalPublishableClientKey,
  newServerSecret,
  projectStillWorks,
  provisionProject,
  repoRoot as root,
  startLatchkeyServer,
  updateProjectConfig,
} from "./lib/latchkey-server.mjs";

const port = Number(process.env.LATCHKEY_PORT ?? 8102);
const oidcPort = Number(process.env.OIDC_PORT ?? 8114);
const stateFile = join(root, ".latchkey", "demo.json");
/** The sign-in buttons the Demo project shows, on the operator's (here: the development provider's) shared keys. */
const DEMO_OAUTH_PROVIDERS = { github: "GitHub", google: "Google", microsoft: "Microsoft" };
const demoOAuthConfig = Object.keys(DEMO_OAUTH_PROVIDERS).map((id) => ({ id, type: "shared" }));

// The internal project's publishable key: our own, seeded through the
// environment, so the demo leaves `npm start`'s .latchkey/data/dev-keys.json alone.
const state = existsSync(stateFile) ? JSON.parse(readFileSync(stateFile, "utf8")) : {};
state.internalPublishableClientKey ??= newInternalPublishableClientKey();
// Used only with DATABASE_URL (production mode needs a secret); kept, so the next run decrypts what this one sealed.
state.serverSecret ??= newServerSecret();
saveState();

const provider = startDevOidcProvider({ port: oidcPort, apiUrl: localApiUrl(port) });
stopAllWhenItStops(provider, "The development OpenID provider");
let server = null;
let vite = null;
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => void stop(0));
// Should this script die some other way, its children must not outlive it.
process.on("exit", () => {
  for (const child of [provider, server]) if (child && !child.exited()) child.process.kill("SIGTERM");
});

try {
  await start();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  await stop(1);
}

async function start() {
  const oidcUrl = await provider.waitUntilReady();
  if (stopping) return; // Ctrl-C while the provider started: start nothing more
  const oauthEnv = mockOAuthEnv(oidcUrl);
  // What the banner promises: the demo's providers the server sends to the development provider (not those with the developer's own keys).
  const mocked = Object.entries(DEMO_OAUTH_PROVIDERS)
    .filter(([id]) => ({ ...process.env, ...oauthEnv })[`STACK_${id.toUpperCase()}_CLIENT_ID`] === "MOCK")
    .map(([, name]) => name);
  server = startLatchkeyServer({
    port,
    dataDir: join(root, ".latchkey", "demo-data"),
    internalPublishableClientKey: state.internalPublishableClientKey,
    serverSecret: state.serverSecret,
    env: oauthEnv,
  });
  stopAllWhenItStops(server, "The Latchkey server");
  const { apiUrl } = server;
  await server.waitUntilReady();
  if (!(await projectStillWorks(apiUrl, state))) {
    console.log("Creating the Demo project…");
    const project = await provisionProject(apiUrl, {
      internalPublishableClientKey: state.internalPublishableClientKey,
      displayName: "Demo",
      keyDescription: "Demo app (scripts/demo.mjs)",
      ownerEmailPrefix: "demo-owner",
      // Sign-in codes too; without an SMTP server they are printed in the server's log (the dev outbox).
      config: { magic_link_enabled: true, oauth_providers: demoOAuthConfig },
    });
    Object.assign(state, project, { oauthProvidersEnabled: true });
    saveState();
  }
  if (!state.oauthProvidersEnabled) await enableDemoOAuthProviders(apiUrl);
  // Vite hands its own process's VITE_* variables to the app (import.meta.env).
  Object.assign(process.env, {
    VITE_LATCHKEY_API_URL: apiUrl,
    VITE_LATCHKEY_PROJECT_ID: state.projectId,
    VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: state.publishableClientKey,
  });
  vite = await createServer({
    root: join(root, "apps", "demo"),
    configFile: join(root, "apps", "demo", "vite.config.ts"),
    server: { port: Number(process.env.DEMO_PORT ?? 5173) },
  });
  await vite.listen();
  console.log(
    [
      "",
      `  Demo: ${vite.resolvedUrls?.local[0] ?? `http://localhost:${vite.config.server.port}/`}`,
      `  Development OpenID provider: ${oidcUrl}${mocked.length ? ` (signing in with ${new Intl.ListFormat("en", { type: "disjunction" }).format(mocked)} goes there: type any e-mail)` : ""}`,
      "  (Ctrl-C stops the demo, the server and the provider.)",
      "",
    ].join("\n"),
  );
}

/**
 * Once, for a project made by an earlier version of this script: adds the
 * demo's providers to those the project has, as its owner would.
 */
async function enableDemoOAuthProviders(apiUrl) {
  if (!state.owner) {
    console.log(`${stateFile} has no owner to sign in as: delete it to make a new Demo project with GitHub, Google and Microsoft.`);
    return;
  }
  console.log("Turning on GitHub, Google and Microsoft sign-in for the Demo project…");
  await updateProjectConfig(apiUrl, state, (config) => {
    const missing = demoOAuthConfig.filter(({ id }) => !config.oauth_providers.some((p) => p.id === id));
    if (missing.length === 0) return null;
    // The admin view repeats each id as provider_config_id, which a patch does not take; masked secrets keep the stored ones.
    const kept = config.oauth_providers.map((p) => Object.fromEntries(Object.entries(p).filter(([key]) => key !== "provider_config_id")));
    return { oauth_providers: [...kept, ...missing] };
  });
  state.oauthProvidersEnabled = true;
  saveState();
}

function stopAllWhenItStops(child, name) {
  child.process.on("exit", (code, signal) => {
    if (stopping) return;
    console.error(`${name} stopped (${signal ?? `exit code ${code}`}).`);
    void stop(1);
  });
}

async function stop(code) {
  if (stopping) return;
  stopping = true;
  await vite?.close().catch(() => {});
  await Promise.all([server?.stop(), provider.stop()]);
  process.exit(code);
}

function saveState() {
  mkdirSync(dirname(stateFile), { recursive: true });
  writeFileSync(stateFile, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
}
