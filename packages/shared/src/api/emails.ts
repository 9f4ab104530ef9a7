/**
 * E-mail: the notification preferences of a user, bulk mail to users,
 * previews of templates, the unsubscribe page. The admin's e-mail tools
 * (sent mail, themes, templates, drafts) are in email-admin.ts.
 */
import { z } from "zod";
import { NOTIFICATION_CATEGORIES } from "../constants.ts";
import { KnownErrors } from "../known-errors/index.ts";
import { jsonValueSchema, userIdOrMeSchema, uuidSchema } from "../schema-fields.ts";
import { themeIdSchema, tsxSourceSchema } from "./email-admin.ts";
import { defineEndpoint } from "./endpoint.ts";
import { listJson } from "./json.ts";

/** Template variables: a JSON object of any values. */
export const variablesField = z.record(z.string(), z.unknown());

// ---- Notification preferences, bulk mail, previews, unsubscribing ----

export const NOTIFICATION_CATEGORY_NAMES = NOTIFICATION_CATEGORIES.map((c) => c.name) as [
  NotificationCategoryName,
  ...NotificationCategoryName[],
];
export type NotificationCategoryName = (typeof NOTIFICATION_CATEGORIES)[number]["name"];

/** A user's preference for one notification category. */
export const notificationPreferenceJson = z.strictObject({
  can_disable: z.boolean(),
  enabled: z.boolean(),
  notification_category_id: z.string(),
  notification_category_name: z.enum(NOTIFICATION_CATEGORY_NAMES),
});
export type NotificationPreferenceJson = z.infer<typeof notificationPreferenceJson>;

/** Gmail clips a message past 102 KB; a cap also keeps the per-recipient text conversion (on the event loop) short. */
export const SEND_EMAIL_HTML_MAX_LENGTH = 100_000;

export const sendEmailBody = z
  .strictObject({
    user_ids: z.array(uuidSchema).optional(),
    all_users: z.boolean().optional(),
    html: z.string().min(1).max(SEND_EMAIL_HTML_MAX_LENGTH).optional(),
    subject: z.string().min(1).max(998).optional(),
    template_id: uuidSchema.optional(),
    draft_id: uuidSchema.optional(),
    variables: z.record(z.string(), jsonValueSchema).optional(),
    // A theme's id, false for none, null for the project's selected theme; absent: the template's or draft's own choice (none for html).
    theme_id: themeIdSchema.optional(),
    // Any name: an unknown one is answered by the route (400 plain text), as other servers of the contract do.
    notification_category_name: z.string().optional(),
  })
  .superRefine((b, ctx) => {
    if ((b.user_ids !== undefined) === (b.all_users === true)) {
      ctx.addIssue({ code: "custom", path: [], message: "must name the recipients with exactly one of user_ids or all_users: true" });
    }
    const sources = [b.html, b.template_id, b.draft_id].filter((v) => v !== undefined).length;
    if (sources !== 1) {
      ctx.addIssue({ code: "custom", path: [], message: "must give the message with exactly one of html, template_id or draft_id" });
    }
    if (b.html !== undefined && b.subject === undefined)
      ctx.addIssue({ code: "custom", path: ["subject"], message: "must be defined when html is given" });
    if (b.html !== undefined && b.variables !== undefined) {
      ctx.addIssue({ code: "custom", path: ["variables"], message: "can only be used with template_id or draft_id" });
    }
  });
export type SendEmailBody = z.input<typeof sendEmailBody>;
export type SendEmail = z.output<typeof sendEmailBody>;

/** One entry per recipient; whether each copy went out (or was skipped, and why) is in the sent-mail list. */
export const sendEmailResultJson = z.strictObject({ user_id: z.string() });
export type SendEmailResultJson = z.infer<typeof sendEmailResultJson>;

/**
 * A preview: the template by id or as TSX, framed by a theme by id (false:
 * none) or as TSX; without a theme, the template's own choice (or, for TSX,
 * the project's selected theme). Variables default to sample values.
 */
export const renderEmailBody = z
  .strictObject({
    theme_id: themeIdSchema.optional(),
    theme_tsx_source: tsxSourceSchema.optional(),
    template_id: uuidSchema.optional(),
    template_tsx_source: tsxSourceSchema.optional(),
    variables: variablesField.optional(),
  })
  .superRefine((b, ctx) => {
    if ((b.template_id === undefined) === (b.template_tsx_source === undefined)) {
      ctx.addIssue({ code: "custom", path: [], message: "must contain exactly one of template_id and template_tsx_source" });
    }
    if (b.theme_id !== undefined && b.theme_tsx_source !== undefined) {
      ctx.addIssue({ code: "custom", path: [], message: "must not contain both theme_id and theme_tsx_source" });
    }
  });
export type RenderEmailBody = z.input<typeof renderEmailBody>;

/** A rendered preview; `subject` only when the template sets one. */
export const renderedEmailJson = z.strictObject({ html: z.string(), subject: z.string().optional() });
export type RenderedEmailJson = z.infer<typeof renderedEmailJson>;

const preferenceParams = z.strictObject({ user_id: userIdOrMeSchema });
const ALL = ["client", "server", "admin"] as const;
const TAGS = ["Emails"];
/** Naming a user (`me` or an id) that is not there. */
const USER_ERRORS = [KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.UserIdDoesNotExist] as const;
/** The link in mail of a category that can be turned off. */
const unsubscribeQuery = z.strictObject({ token: z.string() });

export const emailsEndpoints = {
  listNotificationPreferences: defineEndpoint({
    method: "GET",
    path: "/emails/notification-preference/:user_id",
    summary: "A user's notification preferences: every category, enabled unless the user turned it off",
    tags: TAGS,
    access: ALL,
    params: preferenceParams,
    response: listJson(notificationPreferenceJson),
    errors: USER_ERRORS,
  }),
  updateNotificationPreference: defineEndpoint({
    method: "PATCH",
    path: "/emails/notification-preference/:user_id/:notification_category_id",
    summary: "Turn a notification category on or off for a user (transactional mail cannot be turned off)",
    tags: TAGS,
    access: ALL,
    params: preferenceParams.extend({ notification_category_id: z.string() }),
    body: z.strictObject({ enabled: z.boolean() }),
    response: notificationPreferenceJson,
    errors: USER_ERRORS,
  }),
  renderEmail: defineEndpoint({
    method: "POST",
    path: "/emails/render-email",
    summary: "Preview an e-mail: a template (stored or as TSX) in a theme, rendered for a sample user",
    tags: TAGS,
    access: ["admin"],
    body: renderEmailBody,
    response: renderedEmailJson,
    errors: [KnownErrors.EmailRenderingError],
  }),
  sendEmail: defineEndpoint({
    method: "POST",
    path: "/emails/send-email",
    summary:
      "Send an e-mail to some or all users of the project, through the project's own SMTP server. " +
      "Recipients: user_ids or all_users: true (every user who is not anonymous). Message: html with subject (sent as given, " +
      "or framed by theme_id's theme, null meaning the project's), or a stored template (template_id) or draft (draft_id, then marked sent) " +
      "rendered per user with variables; a given subject wins over the template's. " +
      "notification_category_name (default: the one the template or draft declares with <NotificationCategory>, else Transactional) decides who may receive it: users who turned the category off are skipped, " +
      "and Marketing mail carries an unsubscribe link. One unknown user id → USER_ID_DOES_NOT_EXIST and nothing is sent.",
    tags: TAGS,
    access: ["server", "admin"],
    body: sendEmailBody,
    response: z.strictObject({ results: z.array(sendEmailResultJson) }),
    errors: [KnownErrors.RequiresCustomEmailServer, KnownErrors.UserIdDoesNotExist, KnownErrors.EmailRenderingError],
  }),
  // Opening the link (GET) only asks; the page's button POSTs. Mail scanners that open every link therefore unsubscribe no one.
  showUnsubscribePage: defineEndpoint({
    method: "GET",
    path: "/emails/unsubscribe",
    summary: "Unsubscribe link of a marketing e-mail: a page asking to confirm (nothing changes yet)",
    tags: TAGS,
    access: "public",
    query: unsubscribeQuery,
    responseType: "text",
    response: z.string(),
  }),
  unsubscribe: defineEndpoint({
    method: "POST",
    path: "/emails/unsubscribe",
    summary: "Unsubscribe link of a marketing e-mail, confirmed: turns that category off for the user",
    tags: TAGS,
    access: "public",
    query: unsubscribeQuery,
    responseType: "text",
    response: z.string(),
  }),
};
