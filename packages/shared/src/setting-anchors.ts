/**
 * Anchors of the dashboard's settings on a project's domains page, so a link
 * (a production-mode problem's fix link) leads to the very setting to change.
 */
export const ALLOW_LOCALHOST_ANCHOR = "allow-localhost";

/** The trusted domain at this index of the project's list. */
export function trustedDomainAnchor(index: number): string {
  return `trusted-domain-${index}`;
}
