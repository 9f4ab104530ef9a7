/**
 * Rendered e-mail HTML in an iframe of its own origin-less sandbox: it may
 * run no script and reach nothing. `openLinks` lets its links open in a new
 * tab (the dev outbox, where a sign-in link is the point).
 */
/** The HTML with `<base target="_blank">` in its head (before everything when it has none), so links open in a new tab. */
function withLinksInNewTab(html: string): string {
  const base = '<base target="_blank">';
  const head = /<head(\s[^>]*)?>/i.exec(html);
  return head ? html.slice(0, head.index + head[0].length) + base + html.slice(head.index + head[0].length) : base + html;
}

export function EmailPreviewFrame({ html, title, openLinks = false }: { html: string; title: string; openLinks?: boolean }) {
  return openLinks ? (
    <iframe className="email-frame" title={title} sandbox="allow-popups allow-popups-to-escape-sandbox" srcDoc={withLinksInNewTab(html)} />
  ) : (
    <iframe className="email-frame" title={title} sandbox="" srcDoc={html} />
  );
}
