/**
 * The server's public address (its LATCHKEY_API_URL), as the server names it in
 * the page: what OAuth providers call back to and what apps are set up with.
 * Behind a proxy, or with the dashboard opened by another host name, it is not
 * the browser's own origin; without the tag (a development server), it is.
 */
export function serverUrl(): string {
  const named = document.querySelector<HTMLMetaElement>('meta[name="latchkey-api-url"]')?.content;
  return (named || window.location.origin).replace(/\/+$/, "");
}
