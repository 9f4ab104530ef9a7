/**
 * A project's e-mail as its admins manage it: the sent mail, SMTP tests, and
 * the themes, templates and drafts written in TSX (/internal/email-*).
 */
import { z } from "zod";
import { DISPLAY_NAME_MAX_LENGTH } from "../constants.ts";
import { KnownErrors } from "../known-errors/index.ts";
import { UUID_PATTERN, emailSchema, urlSchema, uuidSchema } from "../schema-fields.ts";
import { defineEndpoint } from "./endpoint.ts";
import { listJson } from "./json.ts";
import { emailConfigSchema } from "./projects.ts";

/** Generous for a hand-written e-mail, small enough that one request cannot bloat the database. */
export const TSX_SOURCE_MAX_LENGTH = 200_000;

/** The name of a theme, template or draft. */
export const emailObjectNameSchema = z.string().min(1).max(DISPLAY_NAME_MAX_LENGTH);
export const tsxSourceSchema = z.string().min(1).max(TSX_SOURCE_MAX_LENGTH);

/** `theme_id` of a template or draft: a theme's id, `false` for none; absent means the project's selected theme. */
export type ThemeIdJson = string | false;

/** `theme_id` in a request: a uuid, false, or null (back to the project's selected theme). */
export const themeIdSchema = z
  .custom<ThemeIdJson>((v) => v === false || (typeof v === "string" && UUID_PATTERN.test(v)), {
    message: "must be a valid UUID or false",
  })
  .nullable();

const themeIdJson = z.union([z.string(), z.literal(false)]);

export const sentEmailJson = z.strictObject({
  id: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  /** When it was handed to the SMTP server (or to the dev outbox); null while queued or after failing. */
  sent_at_millis: z.number().nullable(),
  /** The last delivery error, or why it was skipped; null once sent. */
  error: z.string().nullable(),
  /**
   * `outbox`: never delivered, because no SMTP server is configured (development). A retry waiting is `queued`.
   * `skipped`: a bulk send (POST /emails/send-email) did not mail this user, `error` says why.
   */
  status: z.enum(["queued", "sent", "failed", "outbox", "skipped"]),
});
export type SentEmailJson = z.infer<typeof sentEmailJson>;

/**
 * A dev-outbox message with its rendered bodies. Only mail that was never
 * delivered (no SMTP server) keeps them, for a day and at most the last 100
 * per project; delivered or failed mail keeps no body.
 */
export const outboxEmailJson = z.strictObject({
  id: z.string(),
  to: z.array(z.string()),
  subject: z.string(),
  sent_at_millis: z.number(),
  html: z.string(),
  text: z.string().nullable(),
});
export type OutboxEmailJson = z.infer<typeof outboxEmailJson>;

/**
 * What to try: the SMTP settings of a `standard` e-mail config (`type`
 * optional), tried directly; or `shared`, which sends through the project's
 * own delivery path (queue, shared server or dev outbox), listed with its mail.
 */
export const sendTestEmailBody = z.strictObject({
  recipient_email: emailSchema,
  email_config: z.discriminatedUnion("type", [
    emailConfigSchema.options[0],
    emailConfigSchema.options[1].omit({ type: true }).extend({ type: z.literal("standard").optional() }),
  ]),
});
export type SendTestEmailBody = z.input<typeof sendTestEmailBody>;

/**
 * What the SMTP server said: a refused connection or login is an answer, not
 * an error. `delivered_to` (shared tests only): `smtp` when a server took it,
 * `outbox` when no SMTP server exists and it was kept in the dev outbox
 * instead, as all the project's mail is (that counts as success).
 */
export const sendTestEmailResultJson = z.strictObject({
  success: z.boolean(),
  error_message: z.string().optional(),
  delivered_to: z.enum(["smtp", "outbox"]).optional(),
});
export type SendTestEmailResultJson = z.infer<typeof sendTestEmailResultJson>;

export const emailThemeListItemJson = z.strictObject({ id: z.string(), display_name: z.string() });
export type EmailThemeListItemJson = z.infer<typeof emailThemeListItemJson>;

export const emailThemeJson = z.strictObject({ id: z.string(), display_name: z.string(), tsx_source: z.string() });
export type EmailThemeJson = z.infer<typeof emailThemeJson>;

export const emailTemplateJson = z.strictObject({
  id: z.string(),
  display_name: z.string(),
  tsx_source: z.string(),
  theme_id: themeIdJson.optional(),
});
export type EmailTemplateJson = z.infer<typeof emailTemplateJson>;

/** `sent_at_millis`: null until the draft has been sent. */
export const emailDraftJson = emailTemplateJson.extend({ sent_at_millis: z.number().nullable() });
export type EmailDraftJson = z.infer<typeof emailDraftJson>;

export const emailObjectCreateBody = z.strictObject({ display_name: emailObjectNameSchema });

export const emailThemePatchBody = z.strictObject({
  display_name: emailObjectNameSchema.optional(),
  tsx_source: tsxSourceSchema.optional(),
});
export type EmailThemePatchBody = z.input<typeof emailThemePatchBody>;

export const emailTemplatePatchBody = z.strictObject({
  tsx_source: tsxSourceSchema.optional(),
  theme_id: themeIdSchema.optional(),
});
export type EmailTemplatePatchBody = z.input<typeof emailTemplatePatchBody>;

export const emailDraftPatchBody = z.strictObject({
  display_name: emailObjectNameSchema.optional(),
  tsx_source: tsxSourceSchema.optional(),
  theme_id: themeIdSchema.optional(),
});
export type EmailDraftPatchBody = z.input<typeof emailDraftPatchBody>;

export const emailDraftCreateBody = emailDraftPatchBody.extend({ display_name: emailObjectNameSchema });
export type EmailDraftCreateBody = z.input<typeof emailDraftCreateBody>;

const createdJson = z.strictObject({ id: z.string() });
const successJson = z.strictObject({ success: z.literal(true) });

/** A sign-in invitation: mailed to `email`, linking `callback_url` (a trusted URL) as given. */
export const sendSignInInvitationBody = z.strictObject({ email: emailSchema, callback_url: urlSchema });
export type SendSignInInvitationBody = z.input<typeof sendSignInInvitationBody>;
/** What changing or deleting a draft answers. */
const okJson = z.strictObject({ ok: z.literal("ok") });

const themeParams = z.strictObject({ theme_id: uuidSchema });
const templateParams = z.strictObject({ template_id: uuidSchema });
const draftParams = z.strictObject({ draft_id: uuidSchema });
const ADMIN = ["admin"] as const;
const TAGS = ["Emails"] as const;

export const internalEmailsEndpoints = {
  listSentEmails: defineEndpoint({
    method: "GET",
    path: "/internal/emails",
    summary: "The project's sent e-mails, newest first, with delivery errors",
    tags: TAGS,
    access: ADMIN,
    response: listJson(sentEmailJson),
  }),
  listOutboxEmails: defineEndpoint({
    method: "GET",
    path: "/internal/emails/outbox",
    summary: "The project's dev-outbox mail (never delivered: no SMTP server) with its rendered bodies, newest first",
    tags: TAGS,
    access: ADMIN,
    response: listJson(outboxEmailJson),
  }),
  sendTestEmail: defineEndpoint({
    method: "POST",
    path: "/internal/send-test-email",
    summary: "Send a test e-mail through the given SMTP settings and report what the server said",
    tags: TAGS,
    access: ADMIN,
    body: sendTestEmailBody,
    response: sendTestEmailResultJson,
  }),
  listEmailThemes: defineEndpoint({
    method: "GET",
    path: "/internal/email-themes",
    summary: "List the project's e-mail themes (the three built-in ones included)",
    tags: TAGS,
    access: ADMIN,
    response: z.strictObject({ themes: z.array(emailThemeListItemJson) }),
  }),
  createEmailTheme: defineEndpoint({
    method: "POST",
    path: "/internal/email-themes",
    summary: "Add an e-mail theme; it starts as a copy of the light default",
    tags: TAGS,
    access: ADMIN,
    body: emailObjectCreateBody,
    response: createdJson,
  }),
  getEmailTheme: defineEndpoint({
    method: "GET",
    path: "/internal/email-themes/:theme_id",
    summary: "Get one e-mail theme with its TSX source",
    tags: TAGS,
    access: ADMIN,
    params: themeParams,
    response: emailThemeJson,
  }),
  updateEmailTheme: defineEndpoint({
    method: "PATCH",
    path: "/internal/email-themes/:theme_id",
    summary: "Rename an e-mail theme or change its TSX (which must render, or nothing is saved)",
    tags: TAGS,
    access: ADMIN,
    params: themeParams,
    body: emailThemePatchBody,
    response: z.strictObject({ display_name: z.string() }),
    errors: [KnownErrors.EmailRenderingError],
  }),
  deleteEmailTheme: defineEndpoint({
    method: "DELETE",
    path: "/internal/email-themes/:theme_id",
    summary: "Delete an e-mail theme (not the selected one, nor a built-in one); templates and drafts framed by it take the selected theme",
    tags: TAGS,
    access: ADMIN,
    params: themeParams,
    response: successJson,
  }),
  sendSignInInvitation: defineEndpoint({
    method: "POST",
    path: "/internal/send-sign-in-invitation",
    summary: "Mail an invitation to sign in, linking the given trusted callback URL (the sign-in invitation template)",
    tags: TAGS,
    access: ["server", "admin"],
    body: sendSignInInvitationBody,
    response: successJson,
    errors: [KnownErrors.RedirectUrlNotWhitelisted],
  }),
  listEmailTemplates: defineEndpoint({
    method: "GET",
    path: "/internal/email-templates",
    summary: "List the project's e-mail templates (the built-in ones included) with their TSX",
    tags: TAGS,
    access: ADMIN,
    response: z.strictObject({ templates: z.array(emailTemplateJson) }),
  }),
  createEmailTemplate: defineEndpoint({
    method: "POST",
    path: "/internal/email-templates",
    summary: "Add an e-mail template (needs the project's own e-mail server)",
    tags: TAGS,
    access: ADMIN,
    body: emailObjectCreateBody,
    response: createdJson,
    errors: [KnownErrors.RequiresCustomEmailServer],
  }),
  getEmailTemplate: defineEndpoint({
    method: "GET",
    path: "/internal/email-templates/:template_id",
    summary: "Get one e-mail template with its TSX source",
    tags: TAGS,
    access: ADMIN,
    params: templateParams,
    response: emailTemplateJson,
  }),
  updateEmailTemplate: defineEndpoint({
    method: "PATCH",
    path: "/internal/email-templates/:template_id",
    summary:
      "Change a template's TSX or theme (needs the project's own e-mail server); answers with the result rendered for a sample user (nothing is saved if it does not render)",
    tags: TAGS,
    access: ADMIN,
    params: templateParams,
    body: emailTemplatePatchBody,
    response: z.strictObject({ rendered_html: z.string() }),
    errors: [KnownErrors.EmailRenderingError, KnownErrors.RequiresCustomEmailServer],
  }),
  deleteEmailTemplate: defineEndpoint({
    method: "DELETE",
    path: "/internal/email-templates/:template_id",
    summary: "Delete an e-mail template (the built-in ones cannot be deleted, only edited)",
    tags: TAGS,
    access: ADMIN,
    params: templateParams,
    response: z.strictObject({}),
  }),
  listEmailDrafts: defineEndpoint({
    method: "GET",
    path: "/internal/email-drafts",
    summary: "List the project's e-mail drafts, oldest first",
    tags: TAGS,
    access: ADMIN,
    response: z.strictObject({ drafts: z.array(emailDraftJson) }),
  }),
  createEmailDraft: defineEndpoint({
    method: "POST",
    path: "/internal/email-drafts",
    summary: "Start an e-mail draft (a one-off message sent with POST /emails/send-email)",
    tags: TAGS,
    access: ADMIN,
    body: emailDraftCreateBody,
    response: createdJson,
  }),
  getEmailDraft: defineEndpoint({
    method: "GET",
    path: "/internal/email-drafts/:draft_id",
    summary: "Get one e-mail draft",
    tags: TAGS,
    access: ADMIN,
    params: draftParams,
    response: emailDraftJson,
  }),
  updateEmailDraft: defineEndpoint({
    method: "PATCH",
    path: "/internal/email-drafts/:draft_id",
    summary: "Change a draft's name, TSX or theme (a draft may be unfinished: it is not rendered here)",
    tags: TAGS,
    access: ADMIN,
    params: draftParams,
    body: emailDraftPatchBody,
    response: okJson,
  }),
  deleteEmailDraft: defineEndpoint({
    method: "DELETE",
    path: "/internal/email-drafts/:draft_id",
    summary: "Delete an e-mail draft",
    tags: TAGS,
    access: ADMIN,
    params: draftParams,
    response: okJson,
  }),
};
