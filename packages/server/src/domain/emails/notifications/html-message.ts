/**
 * A message whose HTML the caller wrote: sent as given, with a plain-text
 * part derived from it and, for mail that can be turned off, an unsubscribe
 * footer (the only change made to the caller's HTML).
 */
import { convert } from "html-to-text";
import { escapeHtml } from "../code-emails.ts";
import type { ComposedEmail } from "./send.ts";

export function htmlMessage(subject: string, html: string, unsubscribeLink: string | null): ComposedEmail {
  const body = unsubscribeLink ? withUnsubscribeFooter(html, unsubscribeLink) : html;
  return { subject, html: body, text: convert(body, { wordwrap: false }) };
}

function withUnsubscribeFooter(html: string, link: string): string {
  const footer =
    `<p style="font-size:12px;color:#555;margin-top:32px">Don't want these e-mails? ` +
    `<a href="${escapeHtml(link)}">Unsubscribe</a>.</p>`;
  // Inside the body when the HTML is a whole document, else after the fragment.
  const end = html.toLowerCase().lastIndexOf("</body");
  return end >= 0 ? html.slice(0, end) + footer + html.slice(end) : html + footer;
}
