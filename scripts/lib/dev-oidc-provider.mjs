// Used by scripts/demo.mjs: run the development OpenID provider
// (apps/dev-oidc-provider) as its own process, as
// `npm start -w @latchkey/dev-oidc-provider` does, and the environment that
// sends a Latchkey server's shared OAuth providers to it.
import { spawn } from "node:child_process";
import { tsImport } from "tsx/esm/api";
import { repoRoot, stopChild } from "./latchkey-server.mjs";

// The provider ids live in @latchkey/shared, which is TypeScript; tsx loads it for this plain-Node script.
const { OAUTH_PROVIDER_IDS } = await tsImport("@latchkey/shared/constants", import.meta.url);

/**
 * Starts the provider on `port`, accepting the callbacks of the Latchkey
 * server at `apiUrl`. Its output goes to ours.
 */
export function startDevOidcProvider({ port, apiUrl }) {
  const host = process.env.OIDC_HOST ?? "localhost";
  const child = spawn(process.execPath, ["--import", "tsx", "apps/dev-oidc-provider/src/main.ts"], {
    cwd: repoRoot,
    stdio: ["ignore", "pipe", "inherit"],
    env: { ...process.env, OIDC_PORT: String(port), OIDC_HOST: host, LATCHKEY_API_URL: apiUrl },
  });
  // The provider prints its URL once it listens (apps/dev-oidc-provider/src/main.ts). Waiting for that line,
  // not only for the port to answer, tells our provider apart from another one already on the port.
  const listening = new Promise((resolve, reject) => {
    let out = "";
    child.stdout.setEncoding("utf8").on("data", (chunk) => {
      process.stdout.write(chunk);
      out += chunk;
      const match = /Development OpenID provider at (\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.once("exit", () => reject(new Error("The development OpenID provider did not start.")));
  });
  // Until someone awaits it, an early exit must not count as an unhandled rejection.
  listening.catch(() => {});
  const exited = () => child.exitCode !== null || child.signalCode !== null;

  return {
    process: child,
    exited,

    /** Resolves with the provider's URL once it answers its discovery document; throws if it exits first or takes over a minute. */
    async waitUntilReady() {
      const timeout = setTimeout(() => child.kill("SIGTERM"), 60_000);
      try {
        const url = await listening;
        const res = await fetch(`${url}/.well-known/openid-configuration`);
        if (!res.ok) throw new Error(`The development OpenID provider's discovery document answered ${res.status}.`);
        return url;
      } finally {
        clearTimeout(timeout);
      }
    },

    stop: () => stopChild(child),
  };
}

/**
 * The server's environment for sending every shared provider to the
 * development provider at `url`: MOCK credentials for each provider the
 * developer has not set up themselves (their own STACK_<PROVIDER>_CLIENT_ID
 * or _SECRET wins, real keys or not).
 */
export function mockOAuthEnv(url) {
  const env = { STACK_OAUTH_MOCK_URL: url };
  for (const id of OAUTH_PROVIDER_IDS) {
    const prefix = `STACK_${id.toUpperCase()}`;
    if (process.env[`${prefix}_CLIENT_ID`] || process.env[`${prefix}_CLIENT_SECRET`]) continue;
    env[`${prefix}_CLIENT_ID`] = "MOCK";
    env[`${prefix}_CLIENT_SECRET`] = "MOCK";
  }
  return env;
}
