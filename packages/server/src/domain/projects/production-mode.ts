/**
 * What stands between a project and production mode: each problem
 * with the exact message and a link to where it is fixed, down to the
 * setting itself (the dashboard's anchor for it). Errors refuse production
 * mode; warnings (localhost allowed, or trusted) are only shown, as the
 * reference lets a project in production keep localhost for its own testing.
 */
import { ALLOW_LOCALHOST_ANCHOR, trustedDomainAnchor, type ProductionModeErrorJson } from "@latchkey/shared";
import type { ProjectConfig } from "./config.ts";

export type ProductionModeError = ProductionModeErrorJson;

function isLocalhost(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(\.\d+){3}$/.test(host);
}

export interface ProductionModeProblems {
  errors: ProductionModeError[];
  warnings: ProductionModeError[];
}

export function productionModeProblems(projectId: string, config: ProjectConfig): ProductionModeProblems {
  const page = `/projects/${encodeURIComponent(projectId)}/domains`;
  const errors: ProductionModeError[] = [];
  const warnings: ProductionModeError[] = [];
  if (config.allow_localhost) {
    warnings.push({
      message: "Localhost is not allowed in production mode, turn off 'Allow localhost' in project settings",
      relative_fix_url: `${page}#${ALLOW_LOCALHOST_ANCHOR}`,
    });
  }
  for (const [index, { domain }] of config.domains.entries()) {
    const fix = `${page}#${trustedDomainAnchor(index)}`;
    let url: URL;
    try {
      url = new URL(domain.replaceAll("*", "wildcard"));
    } catch {
      errors.push({ message: `Trusted domain is not a valid URL: ${domain}`, relative_fix_url: fix });
      continue;
    }
    if (isLocalhost(url)) {
      warnings.push({ message: `Localhost domains are not allowed to be trusted in production mode: ${domain}`, relative_fix_url: fix });
    } else if (/^\d+(\.\d+)*$/.test(url.hostname) || url.hostname.startsWith("[")) {
      errors.push({ message: `Direct IPs are not valid for trusted domains in production mode: ${domain}`, relative_fix_url: fix });
    } else if (url.protocol !== "https:") {
      errors.push({ message: `Trusted domains should be HTTPS: ${domain}`, relative_fix_url: fix });
    }
  }
  return { errors, warnings };
}
