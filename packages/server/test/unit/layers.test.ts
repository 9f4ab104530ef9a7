/**
 * The layer rules of eslint.config.js bite: each offending import below, linted
 * with the repository's own config as if it were a file at that path, is an
 * error whose message says what to do instead; the allowed imports beside them
 * are not.
 */
import { ESLint } from "eslint";
import { fileURLToPath } from "node:url";
import { beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));

let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: ROOT });
});

/** The messages of `ruleId` for `source` linted as the file at `path` (from the repository root). */
async function restricted(path: string, source: string, ruleId = "no-restricted-imports"): Promise<string[]> {
  const [result] = await eslint.lintText(source, { filePath: `${ROOT}${path}` });
  expect(result!.fatalErrorCount, JSON.stringify(result!.messages)).toBe(0);
  return result!.messages.filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

describe("domain never imports http/ or routes/", () => {
  it.each([
    ["packages/server/src/domain/users/probe.ts", 'import type { RequestAuth } from "../../http/auth.ts";\nexport type A = RequestAuth;\n'],
    ["packages/server/src/domain/users/probe.ts", 'import me from "../../routes/users/me.ts";\nexport const a = me;\n'],
    ["packages/server/src/domain/auth/password/probe.ts", 'export { knownErrorResponse } from "../../../http/errors.ts";\n'],
    // A capability's domain/ is domain code too.
    ["packages/server/src/capabilities/cli-login/domain/probe.ts", 'export { knownErrorResponse } from "../../../http/errors.ts";\n'],
    [
      "packages/server/src/capabilities/cli-login/domain/probe.ts",
      'import poll from "../routes/auth/cli/poll.ts";\nexport const a = poll;\n',
    ],
  ])("%s: %s", async (path, source) => {
    expect(await restricted(path, source)).toEqual([expect.stringContaining("Domain code knows nothing of HTTP")]);
  });

  it("may import the database and other domain code", async () => {
    const source =
      'import { users } from "../../db/schema/index.ts";\nimport { findUser } from "./record.ts";\nexport const a = [users, findUser];\n';
    expect(await restricted("packages/server/src/domain/users/probe.ts", source)).toEqual([]);
  });
});

describe("routes never import db/", () => {
  it.each([
    ["packages/server/src/routes/users/probe.ts", 'import { users } from "../../db/schema/index.ts";\nexport const a = users;\n'],
    [
      "packages/server/src/routes/auth/password/probe.ts",
      'import type { DbOrTx } from "../../../db/connect.ts";\nexport type A = DbOrTx;\n',
    ],
    // A capability's routes/, its own tables included.
    [
      "packages/server/src/capabilities/cli-login/routes/auth/probe.ts",
      'import { users } from "../../../../db/schema/index.ts";\nexport const a = users;\n',
    ],
    [
      "packages/server/src/capabilities/cli-login/routes/auth/probe.ts",
      'import { cliAuthAttempts } from "../../schema.ts";\nexport const a = cliAuthAttempts;\n',
    ],
    ["packages/server/src/capabilities/cli-login/routes/probe.ts", 'import * as tables from "../schema";\nexport const a = tables;\n'],
  ])("%s: %s", async (path, source) => {
    expect(await restricted(path, source)).toEqual([expect.stringContaining("Route files never touch the database")]);
  });

  it("may import domain functions and the http helpers", async () => {
    const source =
      'import { deleteUser } from "../../domain/users/delete.ts";\nimport { defineRoute } from "../../http/route.ts";\nexport const a = [deleteUser, defineRoute];\n';
    expect(await restricted("packages/server/src/routes/users/probe.ts", source)).toEqual([]);
    const capability =
      'import { pollCliAuth } from "../../domain/poll.ts";\nimport { defineRoute } from "../../../../http/route.ts";\nexport const a = [pollCliAuth, defineRoute];\n';
    expect(await restricted("packages/server/src/capabilities/cli-login/routes/auth/probe.ts", capability)).toEqual([]);
  });
});

describe("routes never open database transactions", () => {
  const restrictedSyntax = (path: string, source: string) => restricted(path, source, "no-restricted-syntax");

  it.each([
    [
      "packages/server/src/routes/users/probe.ts",
      "export const a = (services: any) => services.db.transaction(async (tx: any) => tx.select());\n",
    ],
    ["packages/server/src/routes/auth/password/probe.ts", "export const a = (db: any) => db?.transaction((tx: any) => tx);\n"],
    ["packages/server/src/routes/internal/projects/probe.ts", 'export const a = (db: any) => db["transaction"]((tx: any) => tx);\n'],
    ["packages/server/src/capabilities/cli-login/routes/auth/probe.ts", "export const a = (db: any) => db.transaction((tx: any) => tx);\n"],
  ])("%s: %s", async (path, source) => {
    expect(await restrictedSyntax(path, source)).toEqual([expect.stringContaining("Route files never compose database transactions")]);
  });

  it("leaves domain code and other names alone", async () => {
    const opens = "export const a = (db: any) => db.transaction((tx: any) => tx);\n";
    expect(await restrictedSyntax("packages/server/src/domain/users/probe.ts", opens)).toEqual([]);
    // A call named like it, not a member call named transaction.
    const others =
      "const transaction = (f: () => void) => f();\nexport const a = (db: any) => [transaction(() => {}), db.transactions(), db.transaction];\n";
    expect(await restrictedSyntax("packages/server/src/routes/users/probe.ts", others)).toEqual([]);
  });
});

describe("the server and the SDK never import each other", () => {
  it.each([
    ["packages/server/src/probe.ts", 'import { StackClientApp } from "@latchkey/js";\nexport const a = StackClientApp;\n'],
    ["packages/server/test/probe.ts", 'import { StackProvider } from "@latchkey/react";\nexport const a = StackProvider;\n'],
    ["packages/server/src/lib/probe.ts", 'import * as sdk from "../../../js/src/index.ts";\nexport const a = sdk;\n'],
    // The domain's and routes' own rules do not replace this one.
    ["packages/server/src/domain/users/probe.ts", 'import * as react from "@latchkey/react/src/index.ts";\nexport const a = react;\n'],
    ["packages/server/src/routes/users/probe.ts", 'import * as sdk from "@latchkey/js";\nexport const a = sdk;\n'],
  ])("server: %s: %s", async (path, source) => {
    expect(await restricted(path, source)).toEqual([expect.stringContaining("The server never imports the SDK")]);
  });

  it.each([
    ["packages/js/src/probe.ts", 'import { createApp } from "@latchkey/server/src/app.ts";\nexport const a = createApp;\n'],
    ["packages/js/src/lib/probe.ts", 'import { createApp } from "../../../server/src/app.ts";\nexport const a = createApp;\n'],
    ["packages/react/src/probe.tsx", 'import * as server from "@latchkey/server";\nexport const a = server;\n'],
  ])("SDK: %s: %s", async (path, source) => {
    expect(await restricted(path, source)).toEqual([expect.stringContaining("The SDK never imports the server")]);
  });

  it("both may import @latchkey/shared", async () => {
    const source = 'import { KnownErrors } from "@latchkey/shared";\nexport const a = KnownErrors;\n';
    expect(await restricted("packages/server/src/domain/users/probe.ts", source)).toEqual([]);
    expect(await restricted("packages/js/src/probe.ts", source)).toEqual([]);
  });
});

describe("server code asks the injected clock, not the system, what time it is", () => {
  const restrictedSyntax = (path: string, source: string) => restricted(path, source, "no-restricted-syntax");

  it.each([
    ["packages/server/src/domain/codes/probe.ts", "export const a = Date.now() + 1000;\n"],
    ["packages/server/src/domain/sessions/probe.ts", "export const a = () => new Date();\n"],
    ["packages/server/src/lib/probe.ts", "export const a = (now = Date.now) => now();\n"],
    // The routes' own no-restricted-syntax entry (transactions) does not replace this one.
    ["packages/server/src/routes/users/probe.ts", "export const a = new Date().toISOString();\n"],
  ])("%s: %s", async (path, source) => {
    expect(await restrictedSyntax(path, source)).toEqual([expect.stringContaining("Ask the injected clock what time it is")]);
  });

  it("leaves the clock itself, dates from a given time, and tests alone", async () => {
    const dates = "export const a = (now: number) => [new Date(now), new Date(now + 1000), performance.now()];\n";
    expect(await restrictedSyntax("packages/server/src/domain/codes/probe.ts", dates)).toEqual([]);
    const reads = "export const a = () => [Date.now(), new Date()];\n";
    expect(await restrictedSyntax("packages/server/src/lib/clock.ts", reads)).toEqual([]);
    expect(await restrictedSyntax("packages/server/test/probe.ts", reads)).toEqual([]);
  });
});
