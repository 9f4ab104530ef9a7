/**
 * The import cycles among the server's modules, read with the TypeScript parser: every relative `import`, `import type`
 * and `export … from` counts, since a type-only import ties two modules together in the reader's head as much as
 * any other. Read by import-cycles.test.ts.
 */
import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import ts from "typescript";

/** Module → the modules it imports (both as given to `importGraph`: file names). */
export type ImportGraph = Map<string, string[]>;

/** The graph of relative imports among these sources (file name → text); imports outside them are left out. */
export function importGraph(sources: Record<string, string>): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const [file, text] of Object.entries(sources)) {
    const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const targets = new Set<string>();
    for (const statement of sf.statements) {
      const specifier =
        (ts.isImportDeclaration(statement) || ts.isExportDeclaration(statement)) &&
        statement.moduleSpecifier &&
        ts.isStringLiteral(statement.moduleSpecifier)
          ? statement.moduleSpecifier.text
          : undefined;
      if (!specifier?.startsWith(".")) continue;
      const target = resolve(dirname(file), specifier);
      if (target in sources) targets.add(target);
      else if (`${target}.ts` in sources) targets.add(`${target}.ts`);
      else if (existsSync(target) && `${target}/index.ts` in sources) targets.add(`${target}/index.ts`);
    }
    graph.set(file, [...targets]);
  }
  return graph;
}

/** The groups of modules that import each other in a circle (strongly connected components of two or more, or one importing itself). */
export function importCycles(graph: ImportGraph): string[][] {
  // Tarjan's algorithm, iterative so that a long chain of imports cannot overflow the stack.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const cycles: string[][] = [];
  for (const root of graph.keys()) {
    if (index.has(root)) continue;
    const work: { node: string; next: number }[] = [{ node: root, next: 0 }];
    index.set(root, counter);
    low.set(root, counter++);
    stack.push(root);
    onStack.add(root);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const edges = graph.get(frame.node) ?? [];
      if (frame.next < edges.length) {
        const to = edges[frame.next++]!;
        if (!index.has(to)) {
          index.set(to, counter);
          low.set(to, counter++);
          stack.push(to);
          onStack.add(to);
          work.push({ node: to, next: 0 });
        } else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(to)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          component.push(member);
        } while (member !== frame.node);
        if (component.length > 1 || edges.includes(frame.node)) cycles.push(component.sort());
      }
    }
  }
  return cycles;
}

/** One circle through `from` inside its component, as `a → b → … → a`, to show in a failure. */
export function cyclePath(graph: ImportGraph, component: string[]): string[] {
  const members = new Set(component);
  const start = component[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const to of graph.get(node) ?? []) {
      if (!members.has(to)) continue;
      if (to === start) {
        const path = [start];
        for (let at = node; at !== start; at = previous.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!previous.has(to)) {
        previous.set(to, node);
        queue.push(to);
      }
    }
  }
  return component;
}
