/**
 * Writing the project's trusted domains and the localhost switch. They are
 * config keys (`domains.trustedDomains.<key>`, `domains.allowLocalhost`),
 * written one entry at a time, after the same checks the project's settings
 * apply to a domain. In production mode they go through the project's own
 * settings instead: only those refuse what production mode forbids.
 */
import type { AdminProjectUpdateOptions, CompleteConfig, ConfigOverride } from "@latchkey/js";
import { domainPatternSchema } from "@latchkey/shared/schema-fields";
import { useCallback } from "react";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { useUpdateConfig } from "../../lib/save-config.ts";
import { useUpdateProject } from "../../lib/save-project.ts";

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
export function useSaveDomains(domains: readonly TrustedDomain[]): {
  change: (change: DomainChange) => Promise<void>;
  allowLocalhost: (on: boolean) => Promise<void>;
} {
  const project = useCurrentProject();
  const updateConfig = useUpdateConfig();
  const updateProject = useUpdateProject();
  const write = useCallback(
    (keys: ConfigOverride, fields: NonNullable<AdminProjectUpdateOptions["config"]>) =>
      project.isProductionMode ? updateProject({ config: fields }) : updateConfig(keys),
    [project.isProductionMode, updateConfig, updateProject],
  );
  const change = useCallback(
    async ({ key, entry }: DomainChange) => {
      if (entry) {
        const problem = domainProblem(entry);
        if (problem) throw new Error(problem);
      }
      const list = domains.map(({ domain, handlerPath }) => ({ domain, handlerPath }));
      const index = domains.findIndex((d) => d.key === key);
      if (!entry) list.splice(index === -1 ? list.length : index, 1);
      else if (index === -1) list.push(entry);
      else list[index] = entry;
      await write(
        { [`domains.trustedDomains.${key ?? crypto.randomUUID()}`]: entry && { baseUrl: entry.domain, handlerPath: entry.handlerPath } },
        { domains: list },
      );
    },
    [domains, write],
  );
  const allowLocalhost = useCallback((on: boolean) => write({ "domains.allowLocalhost": on }, { allowLocalhost: on }), [write]);
  return { change, allowLocalhost };
}
