import { internalEmailsEndpoints, type SendTestEmailResultJson } from "@latchkey/shared";
import { escapeHtml } from "../../domain/emails/code-emails.ts";
import { OUTBOX_STATUS } from "../../domain/emails/outbox.ts";
import { sendSmtp, type OutgoingEmail } from "../../domain/emails/smtp.ts";
import { resolveSmtpHost, smtpFailureSummary } from "../../domain/emails/smtp-guard.ts";
import { defineRoute } from "../../http/route.ts";

function testEmail(projectName: string, to: string): OutgoingEmail {
  return {
    to: [to],
    subject: `Test e-mail from ${projectName}`,
    html: `<p>This is a test e-mail from ${escapeHtml(projectName)}: your e-mail settings work.</p>`,
    text: `This is a test e-mail from ${projectName}: your e-mail settings work.`,
  };
}

export default [
  defineRoute(internalEmailsEndpoints.sendTestEmail, async ({ auth, body, services, ip }) => {
    services.emailRateLimit.takeTestEmail(auth.project.id, ip);
    const c = body.email_config;
    const email = testEmail(auth.project.displayName, body.recipient_email);
    if (c.type === "shared") {
      // The project's own path: listed with its mail, and in the dev outbox when there is no SMTP server.
      const sent = await services.emails.sendNow(auth.project.id, email, c);
      const result: SendTestEmailResultJson =
        sent.status === "sent"
          ? { success: true, delivered_to: "smtp" }
          : sent.status === OUTBOX_STATUS
            ? { success: true, delivered_to: "outbox" }
            : { success: false, error_message: sent.error ?? "The e-mail could not be sent." };
      return { body: result };
    }
    let result: SendTestEmailResultJson = { success: true };
    try {
      const connectTo = await resolveSmtpHost(c.host, services.config.smtpAllowPrivateHosts);
      await sendSmtp(
        { host: c.host, port: c.port, username: c.username, password: c.password, senderEmail: c.sender_email, senderName: c.sender_name },
        email,
        c.sender_name,
        connectTo,
        services.config.smtpAllowInsecureAuth,
      );
    } catch (error) {
      result = { success: false, error_message: smtpFailureSummary(error) };
    }
    return { body: result };
  }),
];
