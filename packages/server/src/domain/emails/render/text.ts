/**
 * The plain-text part of a message, derived from its HTML: no wrapping
 * (clients wrap), images and hidden preview text left out, and each link
 * kept as "text: url" so a reader without HTML can still follow it.
 *
 * The HTML is the template's, so this runs in the sandbox's worker, under its
 * time limit: htmlparser2 takes quadratic time on deeply nested tags.
 */
import { convert, type FormatCallback } from "html-to-text";

const linkWithUrl: FormatCallback = (elem, walk, builder) => {
  const href = String(elem.attribs?.href ?? "").replace(/^mailto:/, "");
  if (!href || href.startsWith("#")) {
    walk(elem.children, builder);
    return;
  }
  let text = "";
  builder.pushWordTransform((word: string) => ((text += word), word));
  walk(elem.children, builder);
  builder.popWordTransform();
  if (!text) builder.addInline(href, { noWordTransform: true });
  else if (text !== href) builder.addInline(`: ${href}`, { noWordTransform: true });
};

export function htmlToText(html: string): string {
  return convert(html, {
    wordwrap: false,
    formatters: { linkWithUrl },
    selectors: [
      { selector: "a", format: "linkWithUrl" },
      { selector: "img", format: "skip" },
      { selector: "[data-skip-in-text=true]", format: "skip" },
    ],
  });
}
