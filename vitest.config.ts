import { availableParallelism } from "node:os";
import { defaultServerConditions } from "vite";
import { defineConfig } from "vitest/config";
import { setTestOutputs } from "./scripts/lib/test-outputs.mjs";

/** Workspace packages resolve to their TypeScript sources (the "latchkey-source" export condition; a private name, so no consumer's tooling picks it up by accident), so tests need no build. */
const sources = {
  resolve: { conditions: ["latchkey-source", ...defaultServerConditions] },
  ssr: { resolve: { conditions: ["latchkey-source", ...defaultServerConditions] } },
};

// Where the browser tests' builds go, one directory per checkout (scripts/lib/test-outputs.mjs): set before any
// worker starts, so the global setups and the test files agree.
setTestOutputs();

/** The demo app, built once per run for every file that drives it in Chromium. */
const demoBuild = "packages/react/test/browser/demo-build-once.ts";

/**
 * One suite, two databases: every server test runs on embedded PGlite, and
 * again on real PostgreSQL when TEST_DATABASE_URL is set (as CI sets it).
 */
const databases = ["pglite", ...(process.env.TEST_DATABASE_URL ? ["postgres"] : [])];

/**
 * The files that start their own server share their worker's loaded modules (`isolate: false`) instead of loading the
 * server anew per file: a fresh module graph and PGlite's WebAssembly cost each file about 4 s before its first test,
 * 40% of the server tests' time. Every file still has its own server and database; what a file stubs ends with it.
 */
const sharedModules = { isolate: false, setupFiles: ["packages/server/test/file-end-restore.ts"] };

/** Each test server's database starts as a copy of one migrated database, made once per run. */
const databaseTemplate = ["packages/server/test/database-template.ts"];

/**
 * expect.poll waits 1 s by default: enough on an idle machine, not for a page or a job on a 2-core CI machine
 * running every file at once. A poll returns as soon as its condition holds, so only a failing poll waits longer.
 */
const patientPolls = { poll: { timeout: 15_000 } };

export default defineConfig({
  test: {
    // Vitest's default leaves one core idle (one worker on a 2-core CI machine), but these test files
    // spend most of their time waiting on PostgreSQL, Chromium and argon2's threads, not computing.
    maxWorkers: Math.max(2, availableParallelism()),
    projects: [
      {
        ...sources,
        test: {
          name: "shared",
          expect: patientPolls,
          include: ["packages/shared/test/**/*.test.ts"],
        },
      },
      {
        ...sources,
        test: {
          name: "dev-oidc-provider",
          expect: patientPolls,
          include: ["apps/dev-oidc-provider/test/**/*.test.ts"],
        },
      },
      // The server's tests that need no database (test/unit/): once, not once per database.
      {
        ...sources,
        test: {
          name: "server",
          expect: patientPolls,
          include: ["packages/server/test/unit/**/*.test.ts"],
          testTimeout: 30_000,
        },
      },
      ...databases.map((db) => ({
        ...sources,
        test: {
          name: `server:${db}`,
          ...sharedModules,
          expect: patientPolls,
          include: ["packages/server/test/**/*.test.ts"],
          exclude: ["packages/server/test/unit/**"],
          globalSetup: databaseTemplate,
          env: { LATCHKEY_TEST_DB: db },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      })),
      // The SDK: unit tests once, and its tests against a real server on each database.
      {
        ...sources,
        test: {
          name: "js",
          expect: patientPolls,
          include: ["packages/js/test/unit/**/*.test.ts"],
        },
      },
      ...databases.map((db) => ({
        ...sources,
        test: {
          name: `js:${db}`,
          ...sharedModules,
          expect: patientPolls,
          include: ["packages/js/test/server/**/*.test.ts"],
          globalSetup: databaseTemplate,
          env: { LATCHKEY_TEST_DB: db },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      })),
      {
        ...sources,
        test: {
          name: "react",
          expect: patientPolls,
          include: ["packages/react/test/unit/**/*.test.{ts,tsx}"],
        },
      },
      // The React components in a real browser (Chromium, driven by
      // playwright-core), inside the demo app, against a real server.
      {
        ...sources,
        test: {
          name: "browser",
          ...sharedModules,
          expect: patientPolls,
          include: ["packages/react/test/browser/**/*.test.ts"],
          globalSetup: [...databaseTemplate, demoBuild],
          env: { LATCHKEY_TEST_DB: "pglite" },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      // The dashboard (apps/dashboard), built once, served by a real server, walked in Chromium.
      {
        ...sources,
        test: {
          name: "dashboard",
          ...sharedModules,
          expect: patientPolls,
          include: ["apps/dashboard/test/**/*.test.{ts,tsx}"],
          globalSetup: [...databaseTemplate, "apps/dashboard/test/build-once.ts", demoBuild],
          env: { LATCHKEY_TEST_DB: "pglite" },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      // The packed SDK as a new app outside this repository installs it: from the URLs the setup page of a running
      // `npm start` shows, then signed up and in, in Chromium.
      {
        ...sources,
        test: {
          name: "packed-sdk",
          expect: patientPolls,
          include: ["packages/react/test/packed/**/*.test.ts"],
          globalSetup: ["packages/react/test/packed/pack-once.ts", "apps/dashboard/test/build-once.ts"],
          testTimeout: 180_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
