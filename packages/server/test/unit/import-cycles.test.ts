/**
 * No module of packages/server/src imports itself back through others, not even through a type-only import: the
 * caches, the services and the project, permission and team stores once did, and a circle makes every module in it
 * load (and be understood) only together.
 */
import { relative } from "node:path";
import { describe, expect, it } from "vitest";
import { SERVER_SRC, serverSources } from "./server-sources.ts";
import { cyclePath, importCycles, importGraph } from "./import-cycles.ts";

describe("import cycles", () => {
  it("there are none in packages/server/src", () => {
    const graph = importGraph(serverSources());
    const circles = importCycles(graph).map((component) =>
      cyclePath(graph, component)
        .map((file) => relative(SERVER_SRC, file))
        .join(" → "),
    );
    expect(circles, "Move the type or function both sides need into a module of its own (row types: db/schema/)").toEqual([]);
  });

  it("are found, type-only imports and re-exports included", () => {
    const graph = importGraph({
      "/s/a.ts": 'import type { B } from "./b.ts";\nexport type A = B;',
      "/s/b.ts": 'export { c } from "./c.ts";\nexport type B = string;',
      "/s/c.ts": 'import type { A } from "./a.ts";\nexport const c = 1 as unknown as A;',
      "/s/d.ts": 'import { c } from "./c.ts";\nexport const d = c;',
    });
    const circles = importCycles(graph);
    expect(circles).toEqual([["/s/a.ts", "/s/b.ts", "/s/c.ts"]]);
    expect(cyclePath(graph, circles[0]!)).toEqual(["/s/a.ts", "/s/b.ts", "/s/c.ts", "/s/a.ts"]);
  });

  it("are not found where imports only go one way", () => {
    const graph = importGraph({
      "/s/a.ts": 'import { b } from "./b.ts";\nexport const a = b;',
      "/s/b.ts": 'import { c } from "./c.ts";\nexport const b = c;',
      "/s/c.ts": "export const c = 1;",
    });
    expect(importCycles(graph)).toEqual([]);
  });
});
