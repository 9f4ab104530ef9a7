/**
 * Every page of a project, in the order of the sidebar. Adding a page is one
 * file (its component as the default export) and one entry here: the route,
 * the sidebar link and the code-split chunk all come from this list.
 */
import type { ComponentType } from "react";

export interface ProjectPage {
  /** Under /projects/:projectId/; "" is the project's first page. */
  path: string;
  /** The sidebar's group and label; pages without one (a user's detail) are reached by links. */
  nav?: { group: "Project" | "Users" | "Authentication" | "Emails" | "Payments" | "Automation" | "Settings"; label: string };
  load: () => Promise<{ default: ComponentType }>;
}

export const projectPages: ProjectPage[] = [
  { path: "", nav: { group: "Project", label: "Overview" }, load: () => import("./overview/overview-page.tsx") },
  { path: "setup", nav: { group: "Project", label: "Setup" }, load: () => import("./setup/setup-page.tsx") },
  { path: "keys", nav: { group: "Settings", label: "Project keys" }, load: () => import("./keys/keys-page.tsx") },
  { path: "settings", nav: { group: "Settings", label: "Project settings" }, load: () => import("./settings/settings-page.tsx") },
  { path: "users", nav: { group: "Users", label: "Users" }, load: () => import("./users/users-page.tsx") },
  { path: "users/:userId", load: () => import("./users/user-detail-page.tsx") },
  { path: "teams", nav: { group: "Users", label: "Teams" }, load: () => import("./teams/teams-page.tsx") },
  { path: "teams/:teamId", load: () => import("./teams/team-detail-page.tsx") },
  { path: "team-settings", nav: { group: "Users", label: "Team settings" }, load: () => import("./team-settings/team-settings-page.tsx") },
  { path: "permissions", nav: { group: "Users", label: "Permissions" }, load: () => import("./permissions/permissions-page.tsx") },
  {
    path: "auth-methods",
    nav: { group: "Authentication", label: "Auth methods" },
    load: () => import("./auth-methods/auth-methods-page.tsx"),
  },
  {
    path: "oauth-providers",
    nav: { group: "Authentication", label: "OAuth providers" },
    load: () => import("./oauth-providers/oauth-providers-page.tsx"),
  },
  { path: "domains", nav: { group: "Settings", label: "Domains" }, load: () => import("./domains/domains-page.tsx") },
  { path: "webhooks", nav: { group: "Settings", label: "Webhooks" }, load: () => import("./webhooks/webhooks-page.tsx") },
  { path: "webhooks/:endpointId", load: () => import("./webhooks/endpoint-page.tsx") },
  {
    path: "configuration",
    nav: { group: "Settings", label: "Configuration" },
    load: () => import("./configuration/configuration-page.tsx"),
  },
  { path: "emails", nav: { group: "Emails", label: "Settings" }, load: () => import("./emails/email-settings-page.tsx") },
  { path: "email-templates", nav: { group: "Emails", label: "Templates" }, load: () => import("./emails/email-templates-page.tsx") },
  { path: "email-drafts", nav: { group: "Emails", label: "Drafts" }, load: () => import("./emails/email-drafts-page.tsx") },
  { path: "emails-sent", nav: { group: "Emails", label: "Sent" }, load: () => import("./emails/emails-sent-page.tsx") },
  { path: "outbox", nav: { group: "Emails", label: "Outbox" }, load: () => import("./emails/outbox-page.tsx") },
  { path: "payments", nav: { group: "Payments", label: "Products and items" }, load: () => import("./payments/catalogue-page.tsx") },
  {
    path: "payments-settings",
    nav: { group: "Payments", label: "Payments settings" },
    load: () => import("./payments/payments-settings-page.tsx"),
  },
  {
    path: "transactions",
    nav: { group: "Payments", label: "Transactions" },
    load: () => import("./payments/transactions-page.tsx"),
  },
  { path: "workflows", nav: { group: "Automation", label: "Workflows" }, load: () => import("./workflows/workflows-page.tsx") },
];

/** The first page a project opens on. */
export const projectHome = projectPages[0]!.path;

/** The URL of a project's page ("" is its first page, at /projects/:projectId itself). */
export const projectPath = (projectId: string, path: string) => `/projects/${projectId}${path ? `/${path}` : ""}`;
