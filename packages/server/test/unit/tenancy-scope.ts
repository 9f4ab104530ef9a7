/**
 * Finds the queries on tenant tables that do not keep to one tenancy (see src/db/tenancy.ts). Read by
 * tenancy-scope.test.ts, which runs it over packages/server/src and over small sources that must fail.
 *
 * A statement is a drizzle builder chain that starts at `.from(T)`, `.update(T)` or `.delete(T)`. When T is a tenant
 * table, the chain's `.where(...)` must call `inTenancy(T, …)` (or `preparedInTenancy(T)`), directly or through a
 * constant or function it names. A chain a function returns unfinished (a query factory) is checked at each call
 * of that function. A tenant table joined in is kept by the same call, or by a join condition comparing one of its
 * columns with a column of a table already kept (a row joined by its key belongs to the same tenancy). Raw SQL names
 * a tenant table as `${table}` or by its SQL name; each such table needs `sqlInTenancy(alias, …)` in the same
 * template. A statement that must cross tenancies says why on the line above: `// tenancy: <reason>`.
 */
import ts from "typescript";

export interface TenantTable {
  /** The name the schema exports it under (`teamMembers`). */
  name: string;
  /** Its SQL name (`team_members`). */
  sqlName: string;
}

export interface Finding {
  file: string;
  line: number;
  message: string;
}

const CONDITION_HELPERS = new Set(["inTenancy", "preparedInTenancy"]);
const RAW_HELPER = "sqlInTenancy";
const STATEMENT_STARTS = new Set(["from", "update", "delete"]);
const JOINS = new Set(["innerJoin", "leftJoin", "rightJoin", "fullJoin", "crossJoin"]);
const ESCAPE = /\/\/\s*tenancy:\s*(.*)$/;
const MIN_REASON = 12;
const SQL_KEYWORDS = new Set([
  "where",
  "on",
  "join",
  "inner",
  "left",
  "right",
  "full",
  "cross",
  "group",
  "order",
  "limit",
  "using",
  "set",
  "and",
  "or",
]);

interface Source {
  file: string;
  sf: ts.SourceFile;
  lines: string[];
}

interface Declared {
  src: Source;
  node: ts.Node;
}

interface Link {
  method: string;
  args: readonly ts.Expression[];
}

/** The findings in these sources (file name → text). */
export function tenancyFindings(sources: Record<string, string>, tables: TenantTable[]): Finding[] {
  const parsed: Source[] = Object.entries(sources).map(([file, text]) => ({
    file,
    sf: ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS),
    lines: text.split("\n"),
  }));
  const tableNames = new Set(tables.map((t) => t.name));
  const findings: Finding[] = [];
  const declarations = topLevelDeclarations(parsed);

  const report = (src: Source, node: ts.Node, message: string) => {
    const line = src.sf.getLineAndCharacterOfPosition(node.getStart(src.sf)).line + 1;
    findings.push({ file: src.file, line, message });
  };

  /** Every variable and function declared in a file, at any depth, by name. */
  const declaredIn = new Map<Source, Map<string, Declared[]>>();
  const localDeclarations = (src: Source): Map<string, Declared[]> => {
    let map = declaredIn.get(src);
    if (map) return map;
    const found = new Map<string, Declared[]>();
    const add = (name: string, node: ts.Node) => found.set(name, [...(found.get(name) ?? []), { src, node }]);
    const visit = (node: ts.Node) => {
      if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) add(node.name.text, node.initializer);
      if (ts.isFunctionDeclaration(node) && node.name && node.body) add(node.name.text, node.body);
      ts.forEachChild(node, visit);
    };
    visit(src.sf);
    map = found;
    declaredIn.set(src, map);
    return map;
  };

  /** The declaration a name stands for: in this file first, then any file's top level. */
  const resolve = (src: Source, name: string): Declared[] => localDeclarations(src).get(name) ?? declarations.get(name) ?? [];

  /**
   * Whether the condition `node` keeps `table` in one tenancy: it is a tenancy helper's call on the table, or `and(…)`
   * of one, or names a constant or calls a function (in this file, or any file's top level) whose value is one.
   */
  const keeps = (src: Source, node: ts.Node, table: string, seen = new Set<ts.Node>()): boolean => {
    if (seen.has(node)) return false;
    seen.add(node);
    const again = (child: ts.Node) => keeps(src, child, table, seen);
    if (
      ts.isParenthesizedExpression(node) ||
      ts.isNonNullExpression(node) ||
      ts.isAsExpression(node) ||
      ts.isSpreadElement(node) ||
      ts.isAwaitExpression(node)
    )
      return again(node.expression);
    if (ts.isArrayLiteralExpression(node)) return node.elements.some(again);
    if (ts.isConditionalExpression(node)) return again(node.whenTrue) && again(node.whenFalse);
    if (ts.isIdentifier(node)) return !tableNames.has(node.text) && resolve(src, node.text).some((d) => keeps(d.src, d.node, table, seen));
    if (ts.isArrowFunction(node) || ts.isFunctionExpression(node)) return again(node.body);
    if (ts.isBlock(node)) {
      // A function's body: what it returns.
      const returned: ts.Expression[] = [];
      const visit = (n: ts.Node) => {
        if (ts.isReturnStatement(n) && n.expression) returned.push(n.expression);
        else if (!ts.isFunctionLike(n)) ts.forEachChild(n, visit);
      };
      visit(node);
      return returned.length > 0 && returned.every(again);
    }
    if (!ts.isCallExpression(node) || !ts.isIdentifier(node.expression)) return false;
    const callee = node.expression.text;
    if (CONDITION_HELPERS.has(callee)) {
      const first = node.arguments[0];
      // A helper's own parameter (`inTenancy(table, t)` inside a function given the table) counts too.
      return !!first && ts.isIdentifier(first) && (first.text === table || !tableNames.has(first.text));
    }
    if (callee === "and") return node.arguments.some(again);
    return resolve(src, callee).some((d) => keeps(d.src, d.node, table, seen));
  };

  /** `T.column` → T, for T a tenant table. */
  const tableOfColumn = (node: ts.Node): string | undefined =>
    ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression) && tableNames.has(node.expression.text)
      ? node.expression.text
      : undefined;

  /** Whether `on` compares a column of `table` with a column of one of `kept`. */
  const joinedByKey = (on: ts.Node, table: string, kept: Set<string>): boolean => {
    if (ts.isCallExpression(on) && ts.isIdentifier(on.expression) && on.expression.text === "eq" && on.arguments.length === 2) {
      const [a, b] = on.arguments.map(tableOfColumn);
      if ((a === table && b && kept.has(b)) || (b === table && a && kept.has(a))) return true;
    }
    return ts.forEachChild(on, (child) => (joinedByKey(child, table, kept) ? true : undefined)) ?? false;
  };

  const escaped = (src: Source, nodes: ts.Node[]): boolean =>
    nodes.some((node) => {
      let line = src.sf.getLineAndCharacterOfPosition(node.getStart(src.sf)).line - 1;
      while (line >= 0 && /^\s*(\/\/|\*|\/\*)/.test(src.lines[line]!)) {
        const reason = ESCAPE.exec(src.lines[line]!)?.[1]?.trim();
        if (reason !== undefined) return reason.length >= MIN_REASON;
        line--;
      }
      return false;
    });

  /** The statement or declaration a node is part of, for its escape comment. */
  const statementOf = (node: ts.Node): ts.Node => {
    let cur = node;
    while (cur.parent && !ts.isStatement(cur) && !ts.isPropertyAssignment(cur) && !ts.isSourceFile(cur.parent)) cur = cur.parent;
    return cur;
  };

  /** The calls chained after `call` (`.where(…)`, `.innerJoin(…)`, …), and the node the chain ends at. */
  const chainAfter = (call: ts.Expression): { links: Link[]; end: ts.Expression } => {
    const links: Link[] = [];
    let cur: ts.Expression = call;
    for (;;) {
      const access = cur.parent;
      if (!access || !ts.isPropertyAccessExpression(access) || access.expression !== cur) break;
      const next = access.parent;
      if (!next || !ts.isCallExpression(next) || next.expression !== access) break;
      links.push({ method: access.name.text, args: next.arguments });
      cur = next;
    }
    return { links, end: cur };
  };

  /** A function whose returned value is `end`: its name, so its calls continue the chain. */
  const factoryName = (end: ts.Expression): string | undefined => {
    let node: ts.Node = end;
    while (node.parent && (ts.isParenthesizedExpression(node.parent) || ts.isAwaitExpression(node.parent))) node = node.parent;
    const parent = node.parent;
    let fn: ts.Node | undefined;
    if (parent && ts.isReturnStatement(parent)) fn = ts.findAncestor(parent, ts.isFunctionLike);
    else if (parent && ts.isArrowFunction(parent) && parent.body === node) fn = parent;
    if (!fn) return undefined;
    if (ts.isFunctionDeclaration(fn)) return fn.name?.text;
    if (ts.isArrowFunction(fn) || ts.isFunctionExpression(fn)) {
      const decl = fn.parent;
      if (decl && ts.isVariableDeclaration(decl) && ts.isIdentifier(decl.name)) return decl.name.text;
    }
    return undefined;
  };

  /** Every call of a function by its name, in any file. */
  let callsByName: Map<string, { src: Source; call: ts.CallExpression }[]> | undefined;
  const callsOf = (name: string): { src: Source; call: ts.CallExpression }[] => {
    if (!callsByName) {
      const calls = new Map<string, { src: Source; call: ts.CallExpression }[]>();
      for (const src of parsed) {
        const visit = (node: ts.Node) => {
          if (ts.isCallExpression(node) && ts.isIdentifier(node.expression))
            calls.set(node.expression.text, [...(calls.get(node.expression.text) ?? []), { src, call: node }]);
          ts.forEachChild(node, visit);
        };
        visit(src.sf);
      }
      callsByName = calls;
    }
    return callsByName.get(name) ?? [];
  };

  /**
   * Checks one statement: its start (`.from(T)`) and the links chained after it, following query factories. T may be
   * a table without tenancy (`projects`): then only the tenant tables joined to it are checked.
   */
  const checkStatement = (src: Source, start: ts.CallExpression, table: string, before: Link[], escapes: ts.Node[], depth: number) => {
    const { links: after, end } = chainAfter(start);
    const links = [...before, ...after];
    const here = [...escapes, start, statementOf(start)];
    const factory = after.some((l) => l.method === "where") ? undefined : factoryName(end);
    if (factory && depth < 4) {
      const calls = callsOf(factory).filter((c) => c.call !== start);
      if (calls.length > 0) {
        for (const c of calls) checkStatement(c.src, c.call, table, links, [...here, c.call, statementOf(c.call)], depth + 1);
        return;
      }
    }
    const joins = links.filter((l) => JOINS.has(l.method) && l.args[0] && ts.isIdentifier(l.args[0]) && tableNames.has(l.args[0].text));
    if (escaped(src, here) || (!tableNames.has(table) && joins.length === 0)) return;
    const conditions = links.filter((l) => l.method === "where").flatMap((l) => l.args);
    const kept = new Set<string>();
    const inStatement = new Set([table, ...joins.map((j) => (j.args[0] as ts.Identifier).text)]);
    // A subquery correlated by key with a row of the query around it (`where teamMembers.userId = users.id`, users
    // not in this statement): that query is checked itself.
    const outer = new Set([...tableNames].filter((name) => !inStatement.has(name)));
    if (!tableNames.has(table)) {
      // Not a tenant table: nothing to keep.
    } else if (conditions.some((c) => keeps(src, c, table) || joinedByKey(c, table, outer))) kept.add(table);
    else
      report(
        src,
        start,
        `a query on tenant table ${table} has no tenancy: add inTenancy(${table}, tenancy) to its .where(…), or say why it may cross tenancies with "// tenancy: <reason>" on the line above`,
      );
    // Joined tables in order: each is kept by its own condition or by its key into a kept table.
    for (const join of joins) {
      const joined = (join.args[0] as ts.Identifier).text;
      const on = join.args[1];
      if ([...conditions, ...(on ? [on] : [])].some((c) => keeps(src, c, joined)) || (on && joinedByKey(on, joined, kept)))
        kept.add(joined);
      else if (escaped(src, [join.args[0]!])) continue;
      else
        report(
          src,
          join.args[0]!,
          `tenant table ${joined} is joined without tenancy: join it by key to a row already in the tenancy (eq(${joined}.…, kept.…)) or add inTenancy(${joined}, tenancy)`,
        );
    }
  };

  const sqlNames = new Map(tables.map((t) => [t.sqlName, t.name]));
  const sqlNameOf = new Map(tables.map((t) => [t.name, t.sqlName]));
  const rawTable = new RegExp(
    `\\b(?:from|join|update|into)\\s+(${[...sqlNames.keys()].join("|")})\\b(?:\\s+(?:as\\s+)?([a-z_][a-z0-9_]*))?`,
    "gi",
  );

  /** A raw SQL template naming tenant tables: each needs sqlInTenancy(alias, …) in the template. */
  const checkTemplate = (src: Source, node: ts.TaggedTemplateExpression) => {
    if (!ts.isIdentifier(node.tag) || node.tag.text !== "sql") return;
    const template = node.template;
    const parts: { text: string; span?: ts.Expression }[] = ts.isNoSubstitutionTemplateLiteral(template)
      ? [{ text: template.text }]
      : [
          { text: template.head.text },
          ...template.templateSpans.flatMap((s) => [{ text: "", span: s.expression }, { text: s.literal.text }]),
        ];
    const keptAliases = new Set<string>();
    const visit = (n: ts.Node) => {
      if (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === RAW_HELPER) {
        const alias = n.arguments[0];
        if (alias && (ts.isStringLiteral(alias) || ts.isNoSubstitutionTemplateLiteral(alias))) keptAliases.add(alias.text);
      }
      ts.forEachChild(n, visit);
    };
    visit(template);
    const named: string[] = [];
    const correlated = (table: string) =>
      template.kind !== ts.SyntaxKind.NoSubstitutionTemplateLiteral &&
      /* `${T.column} = ${S.column}` with S another tenant table: correlated with the query around it. */
      (template as ts.TemplateExpression).templateSpans.some((span, i, spans) => {
        const next = spans[i + 1];
        if (!next || !/^\s*=\s*$/.test(span.literal.text)) return false;
        const [a, b] = [tableOfColumn(span.expression), tableOfColumn(next.expression)];
        return (a === table && b !== undefined && b !== table) || (b === table && a !== undefined && a !== table);
      });
    const text = parts
      .map((p) => (p.span ? (ts.isIdentifier(p.span) && tableNames.has(p.span.text) ? `§${p.span.text}§` : "?") : p.text))
      .join("");
    for (const m of text.matchAll(/\b(?:from|join|update)\s+§(\w+)§(?:\s+(?:as\s+)?([a-z_][a-z0-9_]*))?/gi)) {
      const alias = m[2] && !SQL_KEYWORDS.has(m[2].toLowerCase()) ? m[2] : sqlNameOf.get(m[1]!)!;
      if (!keptAliases.has(alias) && !correlated(m[1]!)) named.push(m[1]!);
    }
    for (const m of text.matchAll(rawTable)) {
      const alias = m[2] && !SQL_KEYWORDS.has(m[2].toLowerCase()) ? m[2] : m[1]!;
      // A join by key onto a kept row: `join contact_channels c on c.user_id = u.id`.
      const on = /^\s+on\s+(\w+)\.\w+\s*=\s*(\w+)\.\w+/i.exec(text.slice(m.index + m[0].length));
      const byKey = on && ((on[1] === alias && keptAliases.has(on[2]!)) || (on[2] === alias && keptAliases.has(on[1]!)));
      if (!keptAliases.has(alias) && !byKey) named.push(`${m[1]} ${alias}`);
    }
    if (named.length === 0 || escaped(src, [node, statementOf(node)])) return;
    report(
      src,
      node,
      `raw SQL on tenant table${named.length > 1 ? "s" : ""} ${named.join(", ")} has no tenancy: add \${sqlInTenancy("<alias>", tenancy)} to its where clause, or say why it may cross tenancies with "// tenancy: <reason>" on the line above`,
    );
  };

  for (const src of parsed) {
    const visit = (node: ts.Node) => {
      if (
        ts.isCallExpression(node) &&
        ts.isPropertyAccessExpression(node.expression) &&
        STATEMENT_STARTS.has(node.expression.name.text) &&
        node.arguments.length === 1 &&
        ts.isIdentifier(node.arguments[0]!)
      )
        checkStatement(src, node, node.arguments[0].text, [], [], 0);
      if (ts.isTaggedTemplateExpression(node)) checkTemplate(src, node);
      ts.forEachChild(node, visit);
    };
    visit(src.sf);
  }
  return findings;
}

/** Top-level functions and constants of every file, by name: what a condition may name from another file. */
function topLevelDeclarations(sources: Source[]): Map<string, Declared[]> {
  const map = new Map<string, Declared[]>();
  const add = (name: string, declared: Declared) => map.set(name, [...(map.get(name) ?? []), declared]);
  for (const src of sources)
    for (const statement of src.sf.statements) {
      if (ts.isFunctionDeclaration(statement) && statement.name && statement.body) add(statement.name.text, { src, node: statement.body });
      if (ts.isVariableStatement(statement))
        for (const decl of statement.declarationList.declarations)
          if (ts.isIdentifier(decl.name) && decl.initializer) add(decl.name.text, { src, node: decl.initializer });
    }
  return map;
}
