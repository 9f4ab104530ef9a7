/**
 * Writing the project's trusted domains and the localhost switch. They are
 * config keys (`domains.trustedDomains.<key>`, `domains.allowLocalhost`),
 * written one entry at a time, after the same checks the project's settings
 * apply to a domain. In production mode the server refuses what production
 * mode forbids, and the refusal is thrown as its sentence.
 */
import type { CompleteConfig } from "@latchkey/js";
import { domainPatternSchema } from "@latchkey/shared/schema-fields";
import { useCallback } from "react";
import { useUpdateConfig } from "../../lib/save-config.ts";

export interface TrustedDomain {
  /** The entry's key in the config. */
  key: string;
  domain: string;
  handlerPath: string;
}

export function trustedDomainsOf(config: CompleteConfig): TrustedDomain[] {
  return Object.entries(config.domains.trustedDomains).map(([key, d]) => ({ key, domain: d.baseUrl, handlerPath: d.handlerPath }));
}

/** What is wrong with a domain entry, in the words the project's settings use for it; null when nothing is. */
export function domainProblem(entry: { domain: string; handlerPath: string }): string | null {
  const domain = domainPatternSchema.safeParse(entry.domain);
  if (!domain.success) return `${entry.domain} ${domain.error.issues[0]!.message}`;
  if (!entry.handlerPath.startsWith("/")) return "The handler path must start with '/'.";
  return null;
}

export interface DomainChange {
  /** The entry to change, or none to add one. */
  key?: string;
  /** Its new value, or null to remove it. */
  entry: { domain: string; handlerPath: string } | null;
}

/** Saves a change of the trusted domains or of the localhost switch; throws what was refused. */
export function useSaveDomains(): {
  change: (change: DomainChange) => Promise<void>;
  allowLocalhost: (on: boolean) => Promise<void>;
} {
  const write = useUpdateConfig();
  const change = useCallback(
    async ({ key, entry }: DomainChange) => {
      if (entry) {
        const problem = domainProblem(entry);
        if (problem) throw new Error(problem);
      }
      await write({
        [`domains.trustedDomains.${key ?? crypto.randomUUID()}`]: entry && { baseUrl: entry.domain, handlerPath: entry.handlerPath },
      });
    },
    [write],
  );
  const allowLocalhost = useCallback((on: boolean) => write({ "domains.allowLocalhost": on }), [write]);
  return { change, allowLocalhost };
}
