/**
 * An automated accessibility check of what a page shows, with axe-core's
 * WCAG 2.1 A and AA rules (names, roles, labels, contrast, landmarks). It
 * finds what can be found by reading the page; keyboard walks stay in the
 * tests themselves.
 */
import axe from "axe-core";
import type { Page } from "playwright-core";
import { expect } from "vitest";

interface Violation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[]; html: string; failureSummary?: string }[];
}

/** Fails with each rule the page breaks, and where. */
export async function expectAccessible(page: Page, name: string): Promise<void> {
  // Evaluated through the DevTools protocol, which the dashboard's Content-Security-Policy does not govern (a script tag it would).
  await page.evaluate(axe.source);
  const violations = await page.evaluate(async () => {
    const run = (window as unknown as { axe: typeof axe }).axe.run;
    const result = await run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      resultTypes: ["violations"],
    });
    return result.violations.map((v) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target, html: n.html, failureSummary: n.failureSummary })),
    }));
  });
  const found = (violations as Violation[]).map(
    (v) =>
      `${v.id} (${v.impact}): ${v.help}\n${v.nodes.map((n) => `  at ${JSON.stringify(n.target)} ${n.html}: ${n.failureSummary ?? ""}`).join("\n")}`,
  );
  expect(found, `accessibility of the "${name}" page`).toEqual([]);
}
