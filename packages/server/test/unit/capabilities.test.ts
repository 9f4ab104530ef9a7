/**
 * The capability registry (src/capabilities/index.ts): each capability is the
 * folder it names, registered once; its routes obey the route files' path
 * rule and serve exactly its contract; no method and URL is served twice,
 * across capabilities and src/routes/; its tables reach db/schema (so the
 * migrations cover them) and its config keys name settings of the schema.
 */
import { renderedConfigSchema } from "@latchkey/shared";
import { childSchema } from "@latchkey/shared/config/walk";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { capabilities, capabilityHousekeeping, capabilityRoutesDir } from "../../src/capabilities/index.ts";
import * as schema from "../../src/db/schema/index.ts";
import { checkRouteTable, loadRouteTable, loadRoutesFrom, SRC_DIR } from "../../src/route-table.ts";

const CAPABILITIES_DIR = join(SRC_DIR, "capabilities");
const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;

/** Whether a dotted key names a setting (or a group of them) in the rendered config's schema. */
function isConfigKey(dotted: string): boolean {
  let at: z.ZodType | undefined = renderedConfigSchema;
  for (const segment of dotted.split(".")) {
    at = at && childSchema(at, segment);
  }
  return at !== undefined;
}

describe("the registry", () => {
  it("lists each capability folder once, by its folder's name", () => {
    const names = capabilities.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    const folders = readdirSync(CAPABILITIES_DIR, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    // A folder nobody registered would have its routes, events and housekeeping silently left out.
    expect([...names].sort()).toEqual(folders.sort());
    for (const name of names) expect(existsSync(join(CAPABILITIES_DIR, name, "capability.ts")), name).toBe(true);
  });

  it("holds CLI login", () => {
    expect(capabilities.map((c) => c.name)).toContain("cli-login");
  });
});

describe.each(capabilities.map((c) => [c.name, c] as const))("capability %s", (_name, capability) => {
  const dir = capabilityRoutesDir(capability);

  it("has route files whose paths are their URLs, serving exactly its contract", async () => {
    const routes = await loadRoutesFrom(join(SRC_DIR, dir), dir);
    const contract = Object.values(capability.contract);
    expect(routes.map(key).sort()).toEqual(contract.map(key).sort());
    for (const route of routes) {
      const endpoint = contract.find((e) => key(e) === key(route))!;
      expect(route.body, key(route)).toBe(endpoint.body);
      expect(route.response, key(route)).toBe(endpoint.response);
    }
  });

  it("has its tables in db/schema, where the migrations are made from", () => {
    const exported = new Set<unknown>(Object.values(schema));
    for (const table of capability.tables) expect(exported.has(table)).toBe(true);
  });

  it("reads only settings the config schema has", () => {
    for (const configKey of capability.configKeys) expect(isConfigKey(configKey), configKey).toBe(true);
  });
});

describe("the endpoint map", () => {
  it("is one route per method and URL across src/routes/ and every capability, the CLI login's included", async () => {
    const table = (await loadRouteTable()).map(key);
    expect(new Set(table).size).toBe(table.length);
    expect(table).toEqual(expect.arrayContaining(["POST /auth/cli", "POST /auth/cli/poll", "POST /auth/cli/complete"]));
    expect(table).toContain("GET /users/me");
  });

  it("refuses a method and URL served by two capabilities, naming both files", () => {
    const poll = [{ method: "POST", path: "/auth/cli/poll", handler: () => ({ body: null }) }];
    expect(() =>
      checkRouteTable([
        ["capabilities/cli-login/routes", "auth/cli/poll.ts", poll],
        ["capabilities/other/routes", "auth/cli/poll.ts", poll],
      ]),
    ).toThrow(
      "POST /auth/cli/poll is served by two files, packages/server/src/capabilities/cli-login/routes/auth/cli/poll.ts and " +
        "packages/server/src/capabilities/other/routes/auth/cli/poll.ts.",
    );
  });

  it("refuses a capability's route file at another URL than its path, naming the file", () => {
    const poll = [{ method: "POST", path: "/auth/cli/poll", handler: () => ({ body: null }) }];
    expect(() => checkRouteTable([["capabilities/cli-login/routes", "auth/poll.ts", poll]])).toThrow(
      "packages/server/src/capabilities/cli-login/routes/auth/poll.ts declares POST /auth/cli/poll, but its file path serves /auth/poll.",
    );
  });
});

describe("config keys and housekeeping", () => {
  it("tells a setting from a key the schema does not have", () => {
    expect(isConfigKey("onboarding.requireEmailVerification")).toBe(true);
    expect(isConfigKey("onboarding.requireEmailVerificaton")).toBe(false);
    expect(isConfigKey("cli.enabled")).toBe(false);
  });

  it("gives each housekeeping task its own name, the CLI login's among them", () => {
    const names = capabilityHousekeeping().map((task) => task.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain("expiredCliLogins");
  });
});
