/**
 * The built-in templates (one per kind of mail the platform sends), and the
 * sources a new template or draft starts from. Every template is TSX the
 * admin can edit; the texts say what happened, what to do, and what to do if
 * the reader did not ask for it. Each button is followed by its link as text,
 * for readers whose client does not show buttons.
 *
 * Variables: `link` (all five), `otp` (sign_in_code), `teamDisplayName`
 * (team_invitation, sign_in_invitation). Each link also comes under the name
 * templates written for the wire contract's other servers read
 * (code-mail.ts), so such a template can replace a built-in one unchanged.
 */
import { DEFAULT_EMAIL_TEMPLATE_IDS } from "@latchkey/shared";

export type DefaultTemplateKind = keyof typeof DEFAULT_EMAIL_TEMPLATE_IDS;

/** Styles every built-in template shares; they read well on both default themes. */
const STYLES = `const heading = { fontSize: "22px", fontWeight: "600", lineHeight: "30px", margin: "0 0 16px" };
const paragraph = { fontSize: "16px", lineHeight: "24px", margin: "0 0 16px" };
const actions = { margin: "24px 0" };
const button = {
  backgroundColor: "#2563eb",
  borderRadius: "6px",
  color: "#ffffff",
  fontSize: "16px",
  fontWeight: "600",
  padding: "12px 20px",
  textDecoration: "none",
};
const small = { fontSize: "13px", lineHeight: "20px", margin: "0 0 12px", opacity: "0.85" };
const rawLink = { color: "inherit", textDecoration: "underline", wordBreak: "break-all" };`;

const IMPORTS = `import * as React from "react";
import { Button, Heading, Link, Section, Text } from "@react-email/components";`;

/** The button, then the same link as text (left out of the text part, which already shows the button's link). */
const ACTION = (label: string) => `      <Section style={actions}>
        <Button href={variables.link} style={button}>
          ${label}
        </Button>
      </Section>
      <Text style={small} data-skip-in-text="true">
        Or open this link:{" "}
        <Link href={variables.link} style={rawLink}>
          {variables.link}
        </Link>
      </Text>`;

const EMAIL_VERIFICATION = `${IMPORTS}

${STYLES}

export function subject({ project }) {
  return "Verify your e-mail address for " + project.displayName;
}

export function EmailTemplate({ project, variables }) {
  return (
    <>
      <Heading as="h1" style={heading}>
        Verify your e-mail address
      </Heading>
      <Text style={paragraph}>Please confirm that this e-mail address is yours, so {project.displayName} can reach you here.</Text>
${ACTION("Verify e-mail address")}
      <Text style={small}>If you did not ask for this, you can ignore this e-mail.</Text>
    </>
  );
}
`;

const SIGN_IN_CODE = `${IMPORTS}

${STYLES}

const code = {
  fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  fontSize: "32px",
  fontWeight: "700",
  letterSpacing: "6px",
  lineHeight: "40px",
  margin: "0 0 16px",
};

export function subject({ project, variables }) {
  return "Your sign-in code for " + project.displayName + ": " + variables.otp;
}

export function EmailTemplate({ project, variables }) {
  return (
    <>
      <Heading as="h1" style={heading}>
        Sign in to {project.displayName}
      </Heading>
      <Text style={paragraph}>Type this code where you asked for it:</Text>
      <Text style={code}>{variables.otp}</Text>
      <Text style={paragraph}>Or sign in with one click:</Text>
${ACTION("Sign in")}
      <Text style={small}>The code and the link work once. If you did not try to sign in, you can ignore this e-mail.</Text>
    </>
  );
}
`;

const PASSWORD_RESET = `${IMPORTS}

${STYLES}

export function subject({ project }) {
  return "Reset your password for " + project.displayName;
}

export function EmailTemplate({ project, variables }) {
  return (
    <>
      <Heading as="h1" style={heading}>
        Reset your password
      </Heading>
      <Text style={paragraph}>Someone asked to reset the password of your {project.displayName} account.</Text>
${ACTION("Choose a new password")}
      <Text style={small}>
        The link works once. If you did not ask for this, you can ignore this e-mail: your password stays as it is.
      </Text>
    </>
  );
}
`;

const TEAM_INVITATION = `${IMPORTS}

${STYLES}

export function subject({ project, variables }) {
  return "You are invited to join " + variables.teamDisplayName + " on " + project.displayName;
}

export function EmailTemplate({ project, variables }) {
  return (
    <>
      <Heading as="h1" style={heading}>
        Join {variables.teamDisplayName}
      </Heading>
      <Text style={paragraph}>
        You have been invited to join the team {variables.teamDisplayName} on {project.displayName}.
      </Text>
${ACTION("Accept the invitation")}
      <Text style={small}>If you were not expecting this invitation, you can ignore this e-mail.</Text>
    </>
  );
}
`;

const SIGN_IN_INVITATION = `${IMPORTS}

${STYLES}

export function subject({ project }) {
  return "You are invited to sign in to " + project.displayName;
}

export function EmailTemplate({ project }) {
  return (
    <>
      <Heading as="h1" style={heading}>
        Sign in to {project.displayName}
      </Heading>
      <Text style={paragraph}>You have been invited to sign in to {project.displayName}.</Text>
${ACTION("Sign in")}
      <Text style={small}>If you were not expecting this invitation, you can ignore this e-mail.</Text>
    </>
  );
}
`;

export const DEFAULT_TEMPLATES: Record<DefaultTemplateKind, { displayName: string; tsxSource: string }> = {
  email_verification: { displayName: "E-mail verification", tsxSource: EMAIL_VERIFICATION },
  sign_in_code: { displayName: "Sign-in code", tsxSource: SIGN_IN_CODE },
  password_reset: { displayName: "Password reset", tsxSource: PASSWORD_RESET },
  team_invitation: { displayName: "Team invitation", tsxSource: TEAM_INVITATION },
  sign_in_invitation: { displayName: "Sign-in invitation", tsxSource: SIGN_IN_INVITATION },
};

/** Where a template an admin adds begins: a greeting and a paragraph to replace. */
export const NEW_TEMPLATE_SOURCE = `import * as React from "react";
import { Heading, Text } from "@react-email/components";

export function subject({ project }) {
  return "News from " + project.displayName;
}

export function EmailTemplate({ user, project }) {
  const name = user && user.displayName;
  return (
    <>
      <Heading as="h1" style={{ fontSize: "22px", fontWeight: "600", lineHeight: "30px", margin: "0 0 16px" }}>
        {name ? "Hello, " + name : "Hello"}
      </Heading>
      <Text style={{ fontSize: "16px", lineHeight: "24px", margin: "0 0 16px" }}>
        Write your message from {project.displayName} here.
      </Text>
    </>
  );
}
`;

/** Where a draft begins when the admin gives no source. */
export const NEW_DRAFT_SOURCE = NEW_TEMPLATE_SOURCE;
