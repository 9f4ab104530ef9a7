/**
 * The three themes every project starts with, as TSX the admin can edit. Both
 * frame a message in one readable column with enough contrast for body text
 * (WCAG AA), set the document language, and show the unsubscribe link only
 * for mail a user may turn off.
 */

interface Palette {
  pageBackground: string;
  text: string;
  cardBackground: string;
  cardBorder: string;
  muted: string;
  /** Extra <Head> content (e.g. telling mail apps the message is dark already). */
  head: string;
  /** A band of colour across the top of the card, or none. */
  accent?: string;
}

/** One layout, three palettes: the built-in themes differ only in colours. */
function themeSource(c: Palette): string {
  return `import * as React from "react";
import { Body, Container, Head, Html, Link, Section, Text } from "@react-email/components";

const page = {
  backgroundColor: "${c.pageBackground}",
  color: "${c.text}",
  fontFamily: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
  margin: "0",
  padding: "32px 12px",
};

const card = {
  backgroundColor: "${c.cardBackground}",
  border: "1px solid ${c.cardBorder}",${
    c.accent
      ? `
  borderTop: "4px solid ${c.accent}",`
      : ""
  }
  borderRadius: "8px",
  color: "${c.text}",
  margin: "0 auto",
  maxWidth: "560px",
  padding: "32px",
};

const footer = { color: "${c.muted}", fontSize: "12px", lineHeight: "18px", textAlign: "center" };

export function EmailTheme({ children, unsubscribeLink }) {
  return (
    <Html lang="en" dir="ltr">
      ${
        c.head
          ? `<Head>
${c.head}
      </Head>`
          : "<Head />"
      }
      <Body style={page}>
        <Container style={card}>{children}</Container>
        {unsubscribeLink ? (
          <Section>
            <Text style={footer}>
              Don't want these e-mails?{" "}
              <Link href={unsubscribeLink} style={{ color: "${c.muted}", textDecoration: "underline" }}>
                Unsubscribe
              </Link>
            </Text>
          </Section>
        ) : null}
      </Body>
    </Html>
  );
}
`;
}

export const LIGHT_THEME_SOURCE = themeSource({
  pageBackground: "#f4f4f5",
  text: "#18181b",
  cardBackground: "#ffffff",
  cardBorder: "#e4e4e7",
  muted: "#52525b",
  head: "",
});

export const DARK_THEME_SOURCE = themeSource({
  pageBackground: "#09090b",
  text: "#f4f4f5",
  cardBackground: "#18181b",
  cardBorder: "#3f3f46",
  muted: "#a1a1aa",
  head: `        <meta name="color-scheme" content="dark" />
        <meta name="supported-color-schemes" content="dark" />`,
});

export const COLORFUL_THEME_SOURCE = themeSource({
  pageBackground: "#f5f3ff",
  text: "#1e1b4b",
  cardBackground: "#ffffff",
  cardBorder: "#ddd6fe",
  muted: "#5b21b6",
  head: "",
  accent: "#7c3aed",
});
