import { defineConfig } from "vitest/config";

/**
 * One suite, two databases: every server test runs on embedded PGlite, and
 * again on real PostgreSQL when TEST_DATABASE_URL is set (as CI sets it).
 */
const databases = ["pglite", ...(process.env.TEST_DATABASE_URL ? ["postgres"] : [])];

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: "shared",
          include: ["packages/shared/test/**/*.test.ts"],
        },
      },
      ...databases.map((db) => ({
        test: {
          name: `server:${db}`,
          include: ["packages/server/test/**/*.test.ts"],
          env: { LATCHKEY_TEST_DB: db },
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      })),
      // The SDK: unit tests once, and its tests against a real server on each database.
      {
        test: {
          name: "js",
          include: ["packages/js/test/unit/**/*.test.ts"],
        },
      },
      ...databases.map((db) => ({
        test: {
          name: `js:${db}`,
          include: ["packages/js/test/server/**/*.test.ts"],
          env: { LATCHKEY_TEST_DB: db },
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      })),
    ],
  },
});
