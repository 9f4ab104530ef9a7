import { internalEmailsEndpoints, type SendTestEmailResultJson } from "@latchkey/shared";
import { escapeHtml } from "../../domain/emails/code-emails.ts";
import { OUTBOX_STATUS } from "../../domain/emails/outbox.ts";
import { sendSmtp, type OutgoingEmail } from "../../domain/emails/smtp.ts";
import { resolveSmtpHost, smtpFailureSummary } from "../../domain/emails/smtp-guard.ts";
import { defineRoute } from "../../http/route.ts";

/** Through the project's own SMTP server: named for the project, as its mail will be. */
function ownServerTestEmail(projectName: string, to: string): OutgoingEmail {
  return {
    to: [to],
    subject: `Test e-mail from ${projectName}`,
    html: `<p>This is a test e-mail from ${escapeHtml(projectName)}: your e-mail settings work.</p>`,
    text: `This is a test e-mail from ${projectName}: your e-mail settings work.`,
  };
}

/**
 * Through the operator's shared server, to any address: fixed words, none of the project's, so a test send
 * cannot carry a message of the sender's choosing under the operator's name.
 */
const SHARED_TEST_SUBJECT = "Test e-mail";
function sharedServerTestEmail(to: string): OutgoingEmail {
  const text = "This is a test e-mail: the project's mail through this server works.";
  return { to: [to], subject: SHARED_TEST_SUBJECT, html: `<p>${text}</p>`, text };
}

export default [
  defineRoute(internalEmailsEndpoints.sendTestEmail, async ({ auth, body, services, ip }) => {
    services.emailRateLimit.takeTestEmail(auth.project.id, ip);
    const c = body.email_config;
    if (c.type === "shared") {
      // The project's own path: listed with its mail, and in the dev outbox when there is no SMTP server.
      const sent = await services.emails.sendNow(auth.project.id, sharedServerTestEmail(body.recipient_email), c);
      const result: SendTestEmailResultJson =
        sent.status === "sent"
          ? { success: true, delivered_to: "smtp" }
          : sent.status === OUTBOX_STATUS
            ? auth.project.isProductionMode
              ? // In production mode the outbox keeps no body: nothing was delivered, and nothing can be read.
                { success: false, error_message: "This server has no SMTP server: in production mode, such mail is not delivered." }
              : { success: true, delivered_to: "outbox" }
            : { success: false, error_message: sent.error ?? "The e-mail could not be sent." };
      return { body: result };
    }
    let result: SendTestEmailResultJson = { success: true };
    try {
      const connectTo = await resolveSmtpHost(c.host, services.config.smtpAllowPrivateHosts);
      await sendSmtp(
        { host: c.host, port: c.port, username: c.username, password: c.password, senderEmail: c.sender_email, senderName: c.sender_name },
        ownServerTestEmail(auth.project.displayName, body.recipient_email),
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
