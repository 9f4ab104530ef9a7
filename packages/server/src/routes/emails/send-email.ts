import { KnownErrors, jsonValueSchema, uuidSchema } from "@latchkey/shared";
import { z } from "zod";
import type { DbOrTx } from "../../db/connect.ts";
import { htmlMessage } from "../../domain/emails/notifications/html-message.ts";
import { NOTIFICATION_CATEGORY_NAMES, categoryByName } from "../../domain/emails/notifications/preferences.ts";
import { sendToUsers, type BulkSend } from "../../domain/emails/notifications/send.ts";
import { storedMessageComposer, themedHtmlComposer } from "../../domain/emails/notifications/stored-message.ts";
import { requireDraft, requireTemplate, requireThemeChoice } from "../../domain/emails/templates/lookup.ts";
import { markDraftSent } from "../../domain/emails/templates/store.ts";
import { themeChoiceFromJson, themeIdSchema } from "../../domain/emails/templates/theme-choice.ts";
import type { ProjectRow } from "../../domain/projects/projects.ts";
import { defineRoute } from "../../http/route.ts";
import { tenancyOf } from "../../http/auth.ts";

const SEND_EMAIL_HTML_MAX_LENGTH = 100_000;

const body = z
  .object({
    user_ids: z.array(uuidSchema).optional(),
    all_users: z.boolean().optional(),
    // Gmail clips a message past 102 KB; a cap also keeps the per-recipient text conversion (on the event loop) short.
    html: z.string().min(1).max(SEND_EMAIL_HTML_MAX_LENGTH).optional(),
    subject: z.string().min(1).max(998).optional(),
    template_id: uuidSchema.optional(),
    draft_id: uuidSchema.optional(),
    variables: z.record(z.string(), jsonValueSchema).optional(),
    // A theme's id, false for none, null for the project's selected theme; absent: the template's or draft's own choice (none for html).
    theme_id: themeIdSchema.optional(),
    notification_category_name: z.enum(NOTIFICATION_CATEGORY_NAMES).optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if ((b.user_ids !== undefined) === (b.all_users === true)) {
      ctx.addIssue({ code: "custom", path: [], message: "must name the recipients with exactly one of user_ids or all_users: true" });
    }
    const sources = [b.html, b.template_id, b.draft_id].filter((v) => v !== undefined).length;
    if (sources !== 1) {
      ctx.addIssue({ code: "custom", path: [], message: "must give the message with exactly one of html, template_id or draft_id" });
    }
    if (b.html !== undefined && b.subject === undefined) ctx.addIssue({ code: "custom", path: ["subject"], message: "must be defined when html is given" });
    if (b.html !== undefined && b.variables !== undefined) {
      ctx.addIssue({ code: "custom", path: ["variables"], message: "can only be used with template_id or draft_id" });
    }
  });

type Body = z.output<typeof body>;

/** How each recipient's copy is made, and what else the send records. */
async function messageFor(db: DbOrTx, project: ProjectRow, b: Body): Promise<Pick<BulkSend, "compose" | "afterQueued">> {
  const theme = b.theme_id === undefined ? undefined : themeChoiceFromJson(b.theme_id);
  if (theme) await requireThemeChoice(db, project.id, theme);
  if (b.html !== undefined) {
    const [subject, html] = [b.subject!, b.html];
    if (!theme || theme.noTheme) return { compose: (_recipient, unsubscribeLink) => htmlMessage(subject, html, unsubscribeLink) };
    return { compose: await themedHtmlComposer(db, project, subject, html, theme) };
  }
  const stored = b.template_id !== undefined ? await requireTemplate(db, project.id, b.template_id) : await requireDraft(db, project.id, b.draft_id!);
  const message = { tsxSource: stored.tsxSource, displayName: stored.displayName, variables: b.variables ?? {}, subject: b.subject ?? null };
  const compose = await storedMessageComposer(db, project, message, theme ?? stored);
  if (b.template_id !== undefined) return { compose };
  return { compose, afterQueued: (tx) => markDraftSent(tx, project.id, stored.id) };
}

export default [
  defineRoute({
    method: "POST",
    path: "/emails/send-email",
    summary:
      "Send an e-mail to some or all users of the project, through the project's own SMTP server. " +
      "Recipients: user_ids or all_users: true (every user who is not anonymous). Message: html with subject (sent as given, " +
      "or framed by theme_id's theme, null meaning the project's), or a stored template (template_id) or draft (draft_id, then marked sent) " +
      "rendered per user with variables; a given subject wins over the template's. " +
      "notification_category_name (default Transactional) decides who may receive it: users who turned the category off are skipped, " +
      "and Marketing mail carries an unsubscribe link. One unknown user id → USER_ID_DOES_NOT_EXIST and nothing is sent. " +
      "Answers {results: [{user_id, user_email?, status: queued|skipped, reason?: no_primary_email|notification_category_disabled}]}.",
    tags: ["Emails"],
    access: ["server", "admin"],
    body,
    handler: async ({ auth, body, services }) => {
      // Bulk mail never goes through the platform's shared server.
      if (auth.project.config.email_config.type === "shared") throw new KnownErrors.RequiresCustomEmailServer();
      const message = await messageFor(services.db, auth.project, body);
      const results = await sendToUsers(services, {
        tenancy: tenancyOf(auth),
        category: categoryByName(body.notification_category_name ?? "Transactional"),
        audience: body.user_ids !== undefined ? { userIds: body.user_ids } : { allUsers: true },
        ...message,
      });
      return { body: { results } };
    },
  }),
];
