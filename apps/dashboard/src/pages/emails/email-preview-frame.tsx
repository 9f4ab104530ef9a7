/**
 * Rendered e-mail HTML in an iframe of its own origin-less sandbox: it may
 * run no script and reach nothing. `openLinks` lets its links open in a new
 * tab (the dev outbox, where a sign-in link is the point).
 */
export function EmailPreviewFrame({ html, title, openLinks = false }: { html: string; title: string; openLinks?: boolean }) {
  return openLinks ? (
    <iframe
      className="email-frame"
      title={title}
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      srcDoc={`<base target="_blank">${html}`}
    />
  ) : (
    <iframe className="email-frame" title={title} sandbox="" srcDoc={html} />
  );
}
