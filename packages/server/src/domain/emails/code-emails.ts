/**
 * The messages that carry a code: e-mail verification, sign-in (a link and a
 * code to type), password reset and team invitation; and the sign-in invitation, a link the admin chose. Plain, accessible HTML with a text part;
 * every value from a project or user is escaped.
 */
import type { OutgoingEmail } from "./smtp.ts";

export type CodeEmail =
  | { kind: "email_verification"; projectName: string; to: string; link: string }
  | { kind: "sign_in_code"; projectName: string; to: string; link: string; otp: string }
  | { kind: "password_reset"; projectName: string; to: string; link: string }
  | { kind: "team_invitation"; projectName: string; to: string; link: string; teamDisplayName: string }
  | { kind: "sign_in_invitation"; projectName: string; to: string; link: string };

export function codeEmail(email: CodeEmail): OutgoingEmail {
  const project = email.projectName;
  switch (email.kind) {
    case "email_verification":
      return message(email.to, `Verify your e-mail address for ${project}`, [
        `Please confirm that ${email.to} is your e-mail address for ${project}.`,
        { button: "Verify e-mail address", link: email.link },
        "If you did not ask for this, you can ignore this e-mail.",
      ]);
    case "sign_in_code":
      return message(email.to, `Your sign-in code for ${project}: ${email.otp}`, [
        `Use this code to sign in to ${project}:`,
        { code: email.otp },
        { button: "Sign in", link: email.link },
        "The code and the link work once. If you did not try to sign in, you can ignore this e-mail.",
      ]);
    case "password_reset":
      return message(email.to, `Reset your password for ${project}`, [
        `Someone asked to reset the password of ${email.to} on ${project}.`,
        { button: "Choose a new password", link: email.link },
        "The link works once. If you did not ask for this, you can ignore this e-mail: your password stays as it is.",
      ]);
    case "team_invitation":
      return message(email.to, `You are invited to join ${email.teamDisplayName} on ${project}`, [
        `You have been invited to join the team ${email.teamDisplayName} on ${project}.`,
        { button: "Accept the invitation", link: email.link },
        "If you were not expecting this invitation, you can ignore this e-mail.",
      ]);
    case "sign_in_invitation":
      return message(email.to, `You are invited to sign in to ${project}`, [
        `You have been invited to sign in to ${project}.`,
        { button: "Sign in", link: email.link },
        "If you were not expecting this invitation, you can ignore this e-mail.",
      ]);
  }
}

type Part = string | { button: string; link: string } | { code: string };

function message(to: string, subject: string, parts: Part[]): OutgoingEmail {
  const html = parts
    .map((part) => {
      if (typeof part === "string") return `<p>${escapeHtml(part)}</p>`;
      if ("code" in part) {
        return `<p style="font-size:28px;letter-spacing:6px;font-weight:bold;font-family:monospace">${escapeHtml(part.code)}</p>`;
      }
      const href = escapeHtml(part.link);
      return (
        `<p><a href="${href}" style="display:inline-block;padding:10px 18px;background:#111;color:#fff;border-radius:6px;text-decoration:none">${escapeHtml(part.button)}</a></p>` +
        `<p style="font-size:12px;color:#555">Or open this link: <a href="${href}">${href}</a></p>`
      );
    })
    .join("\n");
  const text = parts
    .map((part) => (typeof part === "string" ? part : "code" in part ? part.code : `${part.button}: ${part.link}`))
    .join("\n\n");
  return {
    to: [to],
    subject,
    html: `<!doctype html><html><body style="font-family:system-ui,sans-serif;line-height:1.5">${html}</body></html>`,
    text,
  };
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
