import { internalEmailsEndpoints, type SendTestEmailResultJson } from "@latchkey/shared";
import { escapeHtml } from "../../domain/emails/code-emails.ts";
import { sendSmtp } from "../../domain/emails/smtp.ts";
import { resolveSmtpHost, smtpFailureSummary } from "../../domain/emails/smtp-guard.ts";
import { defineRoute } from "../../http/route.ts";

export default [
  defineRoute(internalEmailsEndpoints.sendTestEmail, async ({ auth, body, services, ip }) => {
    services.emailRateLimit.takeTestEmail(auth.project.id, ip);
    const c = body.email_config;
    let result: SendTestEmailResultJson = { success: true };
    try {
      const connectTo = await resolveSmtpHost(c.host, services.config.smtpAllowPrivateHosts);
      await sendSmtp(
        { host: c.host, port: c.port, username: c.username, password: c.password, senderEmail: c.sender_email, senderName: c.sender_name },
        {
          to: [body.recipient_email],
          subject: `Test e-mail from ${auth.project.displayName}`,
          html: `<p>This is a test e-mail from ${escapeHtml(auth.project.displayName)}: your SMTP settings work.</p>`,
          text: `This is a test e-mail from ${auth.project.displayName}: your SMTP settings work.`,
        },
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
