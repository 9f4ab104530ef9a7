/**
 * The logos of the project a message is rendered for: given to the theme as its `projectLogos` prop
 * (as themes written for the wire contract expect) and used by a `<ProjectLogo>` given no `data`.
 * Set by entry.ts before each render; not part of the module templates import.
 */
export interface ProjectLogos {
  logoUrl?: string;
  logoFullUrl?: string;
  logoDarkModeUrl?: string;
  logoFullDarkModeUrl?: string;
}

const LOGO_KEYS = ["logoUrl", "logoFullUrl", "logoDarkModeUrl", "logoFullDarkModeUrl"] as const;

export const current: { logos: ProjectLogos } = { logos: {} };

/** The logos among the project props; a project without one has no key for it. */
export function logosOf(project: Record<string, unknown>): ProjectLogos {
  const logos: ProjectLogos = {};
  for (const key of LOGO_KEYS) {
    const url = project[key];
    if (typeof url === "string" && url !== "") logos[key] = url;
  }
  return logos;
}
