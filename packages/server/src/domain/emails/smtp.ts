/** Sending one message over SMTP with nodemailer (loaded by the first send, not when the server starts). */
import { isIP } from "node:net";
import type { Transporter } from "nodemailer";
import { isLoopbackAddress } from "../../lib/network-addresses.ts";
import { resolveSmtpAddresses } from "./smtp-guard.ts";

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
 * Whether a password may only be sent after TLS. Not when every address the
 * host names is loopback (a local Mailpit or Inbucket, which rarely offer
 * STARTTLS: the password never leaves the machine), nor when the operator
 * opted out with LATCHKEY_SMTP_ALLOW_INSECURE_AUTH=true.
 */
export function authNeedsTls(addresses: readonly string[], allowInsecureAuth: boolean): boolean {
  if (allowInsecureAuth) return false;
  return addresses.length === 0 || !addresses.every(isLoopbackAddress);
}

/**
 * `connectTo`: the address to connect to when it was resolved and checked
 * beforehand (TLS still verifies the certificate against `settings.host`).
 */
async function openTransport(settings: SmtpSettings, connectTo: string | undefined, allowInsecureAuth: boolean): Promise<Transporter> {
  let address = connectTo ?? settings.host;
  let requireTLS = false;
  if (settings.username && !allowInsecureAuth) {
    const addresses = connectTo ? [connectTo] : await resolveSmtpAddresses(settings.host);
    requireTLS = authNeedsTls(addresses, false);
    // Connect to a loopback address checked (IPv4 first, as local mail catchers
    // listen there), so a second lookup cannot lead elsewhere.
    if (!requireTLS) address = addresses.find((a) => isIP(a) === 4) ?? addresses[0]!;
  }
  const { createTransport } = await import("nodemailer");
  return createTransport({
    host: address,
    port: settings.port,
    ...(address !== settings.host ? { tls: { servername: settings.host } } : {}),
    // Port 465 speaks TLS from the start; others upgrade with STARTTLS when the server offers it.
    secure: settings.port === 465,
    // With a password to send, insist on TLS (see authNeedsTls): never fall back to plain text if STARTTLS is missing or stripped.
    ...(settings.username ? { auth: { user: settings.username, pass: settings.password }, requireTLS } : {}),
    connectionTimeout: SMTP_TIMEOUT_MILLIS,
    greetingTimeout: SMTP_TIMEOUT_MILLIS,
    socketTimeout: SMTP_TIMEOUT_MILLIS,
  });
}

export async function sendSmtp(
  settings: SmtpSettings,
  email: OutgoingEmail,
  fromName: string | null,
  connectTo?: string,
  allowInsecureAuth = false,
): Promise<void> {
  const transport = await openTransport(settings, connectTo, allowInsecureAuth);
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

/** Connects, greets and logs in (when a username is set) as a send would, without sending anything. */
export async function verifySmtp(settings: SmtpSettings, allowInsecureAuth = false): Promise<void> {
  const transport = await openTransport(settings, undefined, allowInsecureAuth);
  try {
    await transport.verify();
  } finally {
    transport.close();
  }
}
