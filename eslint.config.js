// Lint: typescript-eslint's recommended rules (not the type-checked set: lint
// stays fast on small machines), and the rules that hold the layers
// described in DESIGN's "Layout": domain never imports http/ or routes/,
// routes never import db/ nor open transactions (a capability's domain/ and
// routes/ folders, packages/server/src/capabilities/, under the same rules), and the SDK and the server
// never import each other. The layer rules use the core no-restricted-imports
// and no-restricted-syntax, so they need no plugin;
// packages/server/test/unit/layers.test.ts proves each of them bites.
import js from "@eslint/js";
import globals from "globals";
import tseslint from "typescript-eslint";

/** An import a layer may not make, and what to do instead. */
const restriction = (regex, message) => ({ regex, message });

const SDK_FROM_SERVER = [
  restriction(
    "^@latchkey/(js|react)(/|$)",
    "The server never imports the SDK (@latchkey/js, @latchkey/react). Put what both need in @latchkey/shared.",
  ),
  restriction("^(\\.\\./)+(packages/)?(js|react)/", "The server never imports the SDK's files. Put what both need in @latchkey/shared."),
];

const SERVER_FROM_SDK = [
  restriction("^@latchkey/server(/|$)", "The SDK never imports the server (@latchkey/server). Put what both need in @latchkey/shared."),
  restriction("^(\\.\\./)+(packages/)?server/", "The SDK never imports the server's files. Put what both need in @latchkey/shared."),
];

const DASHBOARD_SHARED_API = restriction(
  "^@latchkey/shared/api(/|$)",
  "The dashboard talks to the API only through @latchkey/js (its admin app): add the call to the SDK instead of using the wire schemas.",
);

const HTTP_FROM_DOMAIN = restriction(
  "^(\\.\\./)+(http|routes)/",
  "Domain code knows nothing of HTTP: do not import http/ or routes/. Take plain values as arguments, and throw " +
    "KnownErrors or StatusError from @latchkey/shared; the route turns the result into a response.",
);

const DB_FROM_ROUTES = restriction(
  "^(\\.\\./)+db/",
  "Route files never touch the database: do not import db/. Call a domain function (packages/server/src/domain/) " +
    "that does the query, named for what it does.",
);

/** A capability's route importing its tables (capabilities/<name>/schema.ts). */
const SCHEMA_FROM_ROUTES = restriction(
  "^(\\.\\./)+schema(\\.ts)?$",
  "Route files never touch the database: do not import the capability's schema.ts. Call a function of its domain/ " +
    "that does the query, named for what it does.",
);

/** Domain code and route files, in src/ and in every capability (packages/server/src/capabilities/<name>/). */
const DOMAIN_FILES = ["packages/server/src/domain/**", "packages/server/src/capabilities/*/domain/**"];
const ROUTE_FILES = ["packages/server/src/routes/**", "packages/server/src/capabilities/*/routes/**"];

/** Any `….transaction(…)` call, dotted or bracketed (`db.transaction`, `db?.transaction`, `db["transaction"]`). */
const TRANSACTION_CALL =
  "CallExpression[callee.type='MemberExpression'][callee.property.name='transaction'], CallExpression[callee.type='MemberExpression'][callee.property.value='transaction']";

/**
 * Reading the system time: `Date.now` (called or passed along) and `new Date()` without arguments. The server
 * asks its injected clock instead, so a test that moves the clock moves every expiry with it.
 */
const CLOCK_MESSAGE =
  "Ask the injected clock what time it is (services.clock, or a `now` parameter: packages/server/src/lib/clock.ts), " +
  "never the system: tests move that clock instead of sleeping. Elapsed time for a budget is performance.now().";
const SYSTEM_TIME_READS = [
  { selector: "MemberExpression[object.name='Date'][property.name='now']", message: CLOCK_MESSAGE },
  { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: CLOCK_MESSAGE },
];

const CLOCK_IN_SERVER = {
  files: ["packages/server/src/**"],
  ignores: ["packages/server/src/lib/clock.ts"],
  rules: { "no-restricted-syntax": ["error", ...SYSTEM_TIME_READS] },
};

/** Flat config replaces a rule's options per file, so the routes' entry repeats the clock's selectors. */
const TRANSACTION_IN_ROUTES = {
  files: ROUTE_FILES,
  rules: {
    "no-restricted-syntax": [
      "error",
      {
        selector: TRANSACTION_CALL,
        message:
          "Route files never compose database transactions: move the transaction and the work in it into a domain " +
          "function (packages/server/src/domain/) named for what it does, which opens the transaction itself.",
      },
      ...SYSTEM_TIME_READS,
    ],
  },
};

/** no-restricted-imports for some files. Flat config replaces (never merges) a rule's options per file, so each entry lists every pattern that applies. */
const restrictImports = (files, patterns) => ({
  files,
  rules: { "no-restricted-imports": ["error", { patterns }] },
});

export default tseslint.config(
  {
    ignores: ["**/node_modules/**", "**/dist/**", "**/coverage/**", "**/test-artifacts/**", "**/.latchkey/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ["**/*.{js,mjs,cjs}"],
    languageOptions: { globals: { ...globals.node } },
  },
  {
    files: ["**/*.{ts,tsx,mts}"],
    rules: {
      // `_`-prefixed names are the usual way to say "required by a signature, not used here".
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrorsIgnorePattern: "^_", ignoreRestSiblings: true },
      ],
      // `abstract new (...args: any[]) => T` is how TypeScript spells "any constructor of T" (a class with
      // parameters is not assignable to one taking `unknown[]`); any other `any` is still an error.
      "@typescript-eslint/no-explicit-any": ["error", { ignoreRestArgs: true }],
    },
  },
  {
    // Tests and the bench read response JSON by field and let expect() judge the values: typing every
    // body they probe would add casts, not safety. Shipped code (src/) keeps the rule.
    files: ["**/test/**", "packages/server/bench/**"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },

  restrictImports(["packages/server/**"], SDK_FROM_SERVER),
  restrictImports(DOMAIN_FILES, [...SDK_FROM_SERVER, HTTP_FROM_DOMAIN]),
  restrictImports(ROUTE_FILES, [...SDK_FROM_SERVER, DB_FROM_ROUTES, SCHEMA_FROM_ROUTES]),
  CLOCK_IN_SERVER,
  TRANSACTION_IN_ROUTES,
  // The SDK's shipped code only: its tests start the real server through the server's test harness.
  restrictImports(["packages/js/src/**", "packages/react/src/**"], SERVER_FROM_SDK),
  // The dashboard is an app like any other: it reaches the API through the SDK only.
  restrictImports(["apps/dashboard/src/**"], [...SERVER_FROM_SDK, DASHBOARD_SHARED_API]),
);
