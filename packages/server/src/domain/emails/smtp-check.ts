/**
 * The shared SMTP server (STACK_EMAIL_*) checked once at start, without
 * sending mail: sends fail in the background while the API answers 200, so a
 * set-up that cannot work is said plainly in the log, with the fix.
 */
import type { Logger } from "pino";
import { verifySmtp, type SmtpSettings } from "./smtp.ts";
import { smtpFailureSummary } from "./smtp-guard.ts";

/** What is wrong with the shared SMTP settings and how to fix it; null when they work. */
export async function sharedSmtpProblem(settings: SmtpSettings, allowInsecureAuth: boolean): Promise<string | null> {
  try {
    await verifySmtp(settings, allowInsecureAuth);
    return null;
  } catch (error) {
    return describeProblem(settings, error);
  }
}

function describeProblem(settings: SmtpSettings, error: unknown): string {
  const server = `The shared SMTP server ${settings.host}:${settings.port}`;
  const code = (error as { code?: unknown }).code;
  switch (code) {
    case "EAUTH":
      return `${server} refused the username ${JSON.stringify(settings.username)} and its password: check STACK_EMAIL_USERNAME and STACK_EMAIL_PASSWORD. E-mail will not be delivered.`;
    case "ETLS":
      return settings.username
        ? `${server} could not set up TLS (it may not offer STARTTLS), and a password is only sent over TLS to a host that is not loopback. Turn on TLS on the SMTP server (or use port 465); if the network to it is trusted, set LATCHKEY_SMTP_ALLOW_INSECURE_AUTH=true. E-mail will not be delivered.`
        : `${server} could not set up TLS: check its certificate and STACK_EMAIL_PORT. E-mail will not be delivered.`;
    default: {
      // nodemailer files a refused or unresolved connection under ESOCKET, keeping the cause in originalCode.
      const cause = (error as { originalCode?: unknown }).originalCode;
      const summary = smtpFailureSummary(typeof cause === "string" ? { code: cause } : error);
      return `${server} cannot be used: ${summary} Check STACK_EMAIL_HOST and STACK_EMAIL_PORT and that the server is running. E-mail will not be delivered until it works.`;
    }
  }
}

/** Logs one warning when the shared SMTP settings cannot work; never throws, never logs the password. */
export async function warnIfSharedSmtpBroken(settings: SmtpSettings, allowInsecureAuth: boolean, logger: Logger): Promise<string | null> {
  const problem = await sharedSmtpProblem(settings, allowInsecureAuth).catch((error: unknown) => describeProblem(settings, error));
  if (problem) logger.warn({ smtpHost: settings.host, smtpPort: settings.port }, problem);
  return problem;
}
