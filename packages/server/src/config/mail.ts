/** The shared SMTP server (STACK_EMAIL_*) and what SMTP hosts may be reached, and how. */
import type { SmtpSettings } from "../domain/emails/smtp.ts";

export interface MailConfig {
  /** The shared SMTP server (STACK_EMAIL_*); without it, mail goes to the dev outbox. */
  email: SmtpSettings | null;
  /** Whether projects' own SMTP settings may name private or local hosts (LATCHKEY_SMTP_ALLOW_PRIVATE_HOSTS). */
  smtpAllowPrivateHosts: boolean;
  /**
   * Whether an SMTP password may be sent without TLS to a host that is not
   * loopback (LATCHKEY_SMTP_ALLOW_INSECURE_AUTH); loopback hosts never need TLS.
   */
  smtpAllowInsecureAuth: boolean;
}

/** The shared SMTP server when STACK_EMAIL_HOST is set, else null. */
export function sharedSmtpFromEnv(env: NodeJS.ProcessEnv): SmtpSettings | null {
  return env.STACK_EMAIL_HOST ? smtpSettingsFromEnv(env) : null;
}

/** `STACK_EMAIL_SENDER` is an address, or `Name <address>`. */
function smtpSettingsFromEnv(env: NodeJS.ProcessEnv): SmtpSettings {
  const sender = env.STACK_EMAIL_SENDER ?? "noreply@example.com";
  const named = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(sender);
  return {
    host: env.STACK_EMAIL_HOST!,
    port: Number(env.STACK_EMAIL_PORT ?? 587),
    username: env.STACK_EMAIL_USERNAME ?? "",
    password: env.STACK_EMAIL_PASSWORD ?? "",
    senderEmail: named ? named[2]! : sender.trim(),
    senderName: named?.[1] || null,
  };
}
