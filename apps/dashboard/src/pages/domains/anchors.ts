/** Anchors of this page's settings, for links that lead to the one that needs changing. */
export const LOCALHOST_ANCHOR = "allow-localhost";

export function domainAnchor(index: number): string {
  return `domain-${index}`;
}
