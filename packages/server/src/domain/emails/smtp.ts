/** Sending one message over SMTP with nodemailer. */
import { createTransport } from "nodemailer";

export interface SmtpSettings {
  host: string;
  port: number;
  username: string;
  password: string;
  senderEmail: string;
  /** Shown as the From name; for the shared server, the project's name is used instead. */
  senderName: string | null;
}

export interface OutgoingEmail {
  to: string[];
  subject: string;
  html: string;
  text?: string | null;
}

/** How long one SMTP exchange may take before it counts as failed. */
const SMTP_TIMEOUT_MILLIS = 15_000;

/**
 * `connectTo`: the address to connect to when it was resolved and checked
 * beforehand (TLS still verifies the certificate against `settings.host`).
 */
export async function sendSmtp(settings: SmtpSettings, email: OutgoingEmail, fromName: string | null, connectTo?: string): Promise<void> {
  const transport = createTransport({
    host: connectTo ?? settings.host,
    port: settings.port,
    ...(connectTo && connectTo !== settings.host ? { tls: { servername: settings.host } } : {}),
    // Port 465 speaks TLS from the start; others upgrade with STARTTLS when the server offers it.
    secure: settings.port === 465,
    // With a password to send, insist on TLS: never fall back to plain text if STARTTLS is missing or stripped.
    ...(settings.username ? { auth: { user: settings.username, pass: settings.password }, requireTLS: true } : {}),
    connectionTimeout: SMTP_TIMEOUT_MILLIS,
    greetingTimeout: SMTP_TIMEOUT_MILLIS,
    socketTimeout: SMTP_TIMEOUT_MILLIS,
  });
  try {
    await transport.sendMail({
      from: fromName ? { name: fromName, address: settings.senderEmail } : settings.senderEmail,
      to: email.to,
      subject: email.subject,
      html: email.html,
      ...(email.text ? { text: email.text } : {}),
    });
  } finally {
    transport.close();
  }
}
