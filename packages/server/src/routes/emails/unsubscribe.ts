import { KnownErrors, StatusError, emailsEndpoints } from "@latchkey/shared";
import { requireUser } from "../../domain/contact-channels/channels.ts";
import { escapeHtml } from "../../domain/emails/code-emails.ts";
import { requireCategory, setPreference } from "../../domain/emails/notifications/preferences.ts";
import { readUnsubscribeToken } from "../../domain/emails/notifications/unsubscribe.ts";
import { responseHeaders } from "../../http/response.ts";
import { defineRoute } from "../../http/route.ts";
import type { Services } from "../../services.ts";

const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";

function page(title: string, body: string): Response {
  const html =
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>${escapeHtml(title)}</title></head>` +
    `<body style="font-family:system-ui,sans-serif;line-height:1.5;max-width:32rem;margin:4rem auto;padding:0 1rem">` +
    `<h1 style="font-size:1.4rem">${escapeHtml(title)}</h1>${body}</body></html>`;
  return new Response(html, { status: 200, headers: responseHeaders("text/html; charset=utf-8", { "content-security-policy": PAGE_CSP }) });
}

async function resolve(services: Services, token: string) {
  const target = readUnsubscribeToken(services.config.serverSecret, token);
  if (!target) throw new StatusError(400, "This unsubscribe link is not valid. Copy the whole link from the e-mail and try again.");
  const project = await services.projects.get(target.projectId);
  if (!project) throw new StatusError(404, "This unsubscribe link belongs to a project that no longer exists.");
  return { target, project, category: requireCategory(target.categoryId) };
}

/** For a user deleted since the mail went out: a 404 page's words rather than USER_ID_DOES_NOT_EXIST. */
async function ofExistingUser<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof KnownErrors.UserIdDoesNotExist) {
      throw new StatusError(404, "This unsubscribe link belongs to an account that no longer exists.");
    }
    throw error;
  }
}

export default [
  defineRoute(emailsEndpoints.showUnsubscribePage, async ({ query, services }) => {
    const { target, project, category } = await resolve(services, query.token);
    await ofExistingUser(requireUser(services.db, target, target.userId));
    const name = escapeHtml(project.displayName);
    return page(
      `Unsubscribe from ${category.name.toLowerCase()} e-mails`,
      `<p>Stop receiving ${escapeHtml(category.name.toLowerCase())} e-mails from ${name}? ` +
        `You will still receive the e-mails your account needs, such as sign-in codes and password resets.</p>` +
        `<form method="post" action="?token=${escapeHtml(encodeURIComponent(query.token))}">` +
        `<button type="submit" style="padding:10px 18px;background:#111;color:#fff;border:0;border-radius:6px;cursor:pointer">Unsubscribe</button></form>`,
    );
  }),
  defineRoute(emailsEndpoints.unsubscribe, async ({ query, services }) => {
    const { target, project, category } = await resolve(services, query.token);
    await ofExistingUser(setPreference(services.db, target, target.userId, category, false));
    return page(
      "You are unsubscribed",
      `<p>${escapeHtml(project.displayName)} will no longer send you ${escapeHtml(category.name.toLowerCase())} e-mails. ` +
        `You can turn them back on in your account settings.</p>`,
    );
  }),
];
