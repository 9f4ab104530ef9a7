import { emailSchema, type SendTestEmailResultJson } from "@latchkey/shared";
import { z } from "zod";
import { escapeHtml } from "../../domain/emails/code-emails.ts";
import { sendSmtp } from "../../domain/emails/smtp.ts";
import { resolveSmtpHost, smtpFailureSummary } from "../../domain/emails/smtp-guard.ts";
import { emailConfigSchema } from "../../domain/projects/config.ts";
import { defineRoute } from "../../http/route.ts";

const standardConfig = emailConfigSchema.options[1].omit({ type: true }).extend({ type: z.literal("standard").optional() });

export default [
  defineRoute({
    method: "POST",
    path: "/internal/send-test-email",
    summary: "Send a test e-mail through the given SMTP settings and report what the server said",
    tags: ["Emails"],
    access: ["admin"],
    body: z.object({ recipient_email: emailSchema, email_config: standardConfig }).strict(),
    handler: async ({ auth, body, services, ip }) => {
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
        );
      } catch (error) {
        result = { success: false, error_message: smtpFailureSummary(error) };
      }
      return { body: result };
    },
  }),
];
