/**
 * The two themes every project starts with, as TSX the admin can edit. Both
 * frame a message in one readable column with enough contrast for body text
 * (WCAG AA), set the document language, and show the unsubscribe link only
 * for mail a user may turn off.
 */

export const LIGHT_THEME_SOURCE = `import * as React from "react";
import { Body, Container, Head, Html, Link, Section, Text } from "@react-email/components";

const page = {
  backgroundColor: "#f4f4f5",
  color: "#18181b",
  fontFamily: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
  margin: "0",
  padding: "32px 12px",
};

const card = {
  backgroundColor: "#ffffff",
  border: "1px solid #e4e4e7",
  borderRadius: "8px",
  margin: "0 auto",
  maxWidth: "560px",
  padding: "32px",
};

const footer = { color: "#52525b", fontSize: "12px", lineHeight: "18px", textAlign: "center" };

export function EmailTheme({ children, unsubscribeLink }) {
  return (
    <Html lang="en" dir="ltr">
      <Head />
      <Body style={page}>
        <Container style={card}>{children}</Container>
        {unsubscribeLink ? (
          <Section>
            <Text style={footer}>
              Don't want these e-mails?{" "}
              <Link href={unsubscribeLink} style={{ color: "#52525b", textDecoration: "underline" }}>
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

export const DARK_THEME_SOURCE = `import * as React from "react";
import { Body, Container, Head, Html, Link, Section, Text } from "@react-email/components";

const page = {
  backgroundColor: "#09090b",
  color: "#f4f4f5",
  fontFamily: "-apple-system, BlinkMacSystemFont, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif",
  margin: "0",
  padding: "32px 12px",
};

const card = {
  backgroundColor: "#18181b",
  border: "1px solid #3f3f46",
  borderRadius: "8px",
  color: "#f4f4f5",
  margin: "0 auto",
  maxWidth: "560px",
  padding: "32px",
};

const footer = { color: "#a1a1aa", fontSize: "12px", lineHeight: "18px", textAlign: "center" };

export function EmailTheme({ children, unsubscribeLink }) {
  return (
    <Html lang="en" dir="ltr">
      <Head>
        <meta name="color-scheme" content="dark" />
        <meta name="supported-color-schemes" content="dark" />
      </Head>
      <Body style={page}>
        <Container style={card}>{children}</Container>
        {unsubscribeLink ? (
          <Section>
            <Text style={footer}>
              Don't want these e-mails?{" "}
              <Link href={unsubscribeLink} style={{ color: "#a1a1aa", textDecoration: "underline" }}>
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
