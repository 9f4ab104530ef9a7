/**
 * A message whose HTML the caller wrote: sent as given, with a plain-text
 * part derived from it and, for mail that can be turned off, an unsubscribe
 * footer (the only change made to the caller's HTML). html-to-text is loaded
 * by the first such message, not when the server starts.
 */
import { escapeHtml } from "../code-emails.ts";
import type { ComposedEmail } from "./send.ts";

export async function htmlMessage(subject: string, html: string, unsubscribeLink: string | null): Promise<ComposedEmail> {
  const body = unsubscribeLink ? withUnsubscribeFooter(html, unsubscribeLink) : html;
  const text = (await textOf(html)) + (unsubscribeLink ? `\n\nDon't want these e-mails? Unsubscribe: ${unsubscribeLink}` : "");
  return { subject, html: body, text };
}

/** One conversion per send, not per recipient: the same HTML comes back for every user. */
let lastText: { html: string; text: string } | null = null;

async function textOf(html: string): Promise<string> {
  if (lastText?.html !== html) lastText = { html, text: await convertSafely(html) };
  return lastText.text;
}

/** Deeply nested HTML overflows the converter's stack: then the text part is the HTML without its tags. */
async function convertSafely(html: string): Promise<string> {
  const { convert } = await import("html-to-text");
  try {
    return convert(html, { wordwrap: false });
  } catch {
    return html
      .replace(/<[^>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim();
  }
}

function withUnsubscribeFooter(html: string, link: string): string {
  const footer =
    `<p style="font-size:12px;color:#555;margin-top:32px">Don't want these e-mails? ` +
    `<a href="${escapeHtml(link)}">Unsubscribe</a>.</p>`;
  // Inside the body when the HTML is a whole document, else after the fragment.
  const end = html.toLowerCase().lastIndexOf("</body");
  return end >= 0 ? html.slice(0, end) + footer + html.slice(end) : html + footer;
}
