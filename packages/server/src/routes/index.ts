/**
 * Every route module. A module's path mirrors its URL under /api/v1:
 * routes/auth/password/sign-in.ts serves POST /api/v1/auth/password/sign-in.
 */
import type { RouteDefinition } from "../http/route.ts";
import anonymousSignUp from "./auth/anonymous/sign-up.ts";
import oauthToken from "./auth/oauth/token.ts";
import passwordSet from "./auth/password/set.ts";
import passwordSignIn from "./auth/password/sign-in.ts";
import passwordSignUp from "./auth/password/sign-up.ts";
import passwordUpdate from "./auth/password/update.ts";
import sessionById from "./auth/sessions/[session_id].ts";
import sessionCurrent from "./auth/sessions/current.ts";
import sessionRefresh from "./auth/sessions/current/refresh.ts";
import sessions from "./auth/sessions/index.ts";
import renderEmail from "./emails/render-email.ts";
import contactChannels from "./contact-channels/index.ts";
import contactChannelById from "./contact-channels/[user_id]/[contact_channel_id].ts";
import contactChannelSendCode from "./contact-channels/[user_id]/[contact_channel_id]/send-verification-code.ts";
import contactChannelSendPrimaryCode from "./contact-channels/send-verification-code.ts";
import contactChannelVerify from "./contact-channels/verify.ts";
import contactChannelVerifyCheck from "./contact-channels/verify/check-code.ts";
import otpSendSignInCode from "./auth/otp/send-sign-in-code.ts";
import otpSignIn from "./auth/otp/sign-in.ts";
import passwordReset from "./auth/password/reset.ts";
import passwordResetCheck from "./auth/password/reset/check-code.ts";
import passwordSendResetCode from "./auth/password/send-reset-code.ts";
import internalApiKeyById from "./internal/api-keys/[api_key_id].ts";
import internalApiKeys from "./internal/api-keys/index.ts";
import internalEmailDraftById from "./internal/email-drafts/[draft_id].ts";
import internalEmailDrafts from "./internal/email-drafts/index.ts";
import internalEmailTemplateById from "./internal/email-templates/[template_id].ts";
import internalEmailTemplates from "./internal/email-templates/index.ts";
import internalEmailThemeById from "./internal/email-themes/[theme_id].ts";
import internalEmailThemes from "./internal/email-themes/index.ts";
import internalEmails from "./internal/emails.ts";
import internalSendTestEmail from "./internal/send-test-email.ts";
import internalProjectCurrent from "./internal/projects/current.ts";
import internalProjects from "./internal/projects/index.ts";
import internalProjectTransfer from "./internal/projects/transfer.ts";
import jwks from "./projects/[project_id]/.well-known/jwks.json.ts";
import anonymousJwks from "./projects-anonymous-users/[project_id]/.well-known/jwks.json.ts";
import projectCurrent from "./projects/current.ts";
import root from "./root.ts";
import notificationPreferences from "./emails/notification-preference/[user_id].ts";
import notificationPreferenceByCategory from "./emails/notification-preference/[user_id]/[notification_category_id].ts";
import sendEmail from "./emails/send-email.ts";
import emailUnsubscribe from "./emails/unsubscribe.ts";
import userById from "./users/[user_id].ts";
import users from "./users/index.ts";
import userMe from "./users/me.ts";

export const allRoutes: RouteDefinition[] = [
  ...notificationPreferences,
  ...notificationPreferenceByCategory,
  ...sendEmail,
  ...emailUnsubscribe,
  ...root,
  ...internalEmails,
  ...internalSendTestEmail,
  ...passwordSignUp,
  ...passwordSignIn,
  ...passwordUpdate,
  ...passwordSet,
  ...passwordSendResetCode,
  ...passwordResetCheck,
  ...passwordReset,
  ...otpSendSignInCode,
  ...otpSignIn,
  ...anonymousSignUp,
  ...oauthToken,
  ...sessions,
  ...sessionCurrent,
  ...sessionRefresh,
  ...sessionById,
  ...users,
  ...userMe,
  ...userById,
  ...contactChannels,
  ...contactChannelSendPrimaryCode,
  ...contactChannelVerify,
  ...contactChannelVerifyCheck,
  ...contactChannelById,
  ...contactChannelSendCode,
  ...projectCurrent,
  ...jwks,
  ...anonymousJwks,
  ...internalProjects,
  ...internalProjectCurrent,
  ...internalProjectTransfer,
  ...internalApiKeys,
  ...internalApiKeyById,
  ...internalEmailThemes,
  ...internalEmailThemeById,
  ...internalEmailTemplates,
  ...internalEmailTemplateById,
  ...internalEmailDrafts,
  ...internalEmailDraftById,
  ...renderEmail,
];
