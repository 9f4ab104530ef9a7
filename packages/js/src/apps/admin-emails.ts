/**
 * An admin app's e-mail tools: the project's sent mail, SMTP tests, themes,
 * templates and drafts (TSX rendered by the server's sandbox), and previews.
 * Themes, templates and drafts are plain snapshots; change them through the
 * app's methods.
 */
import type {
  RenderEmailBody,
  EmailDraftCreateBody,
  EmailDraftPatchBody,
  EmailTemplatePatchBody,
  EmailThemePatchBody,
  SendTestEmailBody,
  ThemeIdJson,
} from "@latchkey/shared/api/index";
import { snakeCaseKeys, type CamelCaseKeys } from "@latchkey/shared/case";
import type { AdminProjectContext } from "../models/admin-project.ts";
import type { EmailDraftJson, EmailTemplateJson } from "../models/json.ts";

/** A theme's id, false for no theme, or null for the project's selected theme. */
export type ThemeChoice = ThemeIdJson | null;

export interface SentEmail {
  id: string;
  to: string[];
  subject: string;
  sentAt: Date | null;
  error: string | null;
  /**
   * "outbox": never delivered, because no SMTP server is configured (development). "skipped": a bulk send did
   * not mail this user (`error` says why).
   */
  status: "queued" | "sent" | "failed" | "outbox" | "skipped";
}

/** Dev-outbox mail with its rendered bodies (kept a day, the last 100 of the project). */
export interface OutboxEmail {
  id: string;
  to: string[];
  subject: string;
  sentAt: Date;
  html: string;
  text: string | null;
}

export interface EmailTheme {
  id: string;
  displayName: string;
}

export interface EmailThemeWithSource extends EmailTheme {
  tsxSource: string;
}

export interface EmailTemplate {
  id: string;
  displayName: string;
  tsxSource: string;
  /** Null: the project's selected theme. */
  themeId: string | false | null;
}

export interface EmailDraft extends EmailTemplate {
  sentAt: Date | null;
}

/** The project's own SMTP server, as `sendTestEmail` tries it. */
export type SmtpSettings = Omit<CamelCaseKeys<Extract<SendTestEmailBody["email_config"], { host: string }>>, "type">;

export interface SendTestEmailOptions {
  recipientEmail: string;
  /** SMTP settings to try at once, or the shared server through the project's own delivery (listed with its mail). */
  emailConfig: SmtpSettings | { type: "shared" };
}

export interface SendTestEmailResult {
  success: boolean;
  errorMessage: string | null;
  /** For the shared server: "outbox" when no SMTP server exists and the mail was kept in the dev outbox instead. */
  deliveredTo?: "smtp" | "outbox";
}

export type EmailThemeUpdateOptions = CamelCaseKeys<EmailThemePatchBody>;
export type EmailTemplateUpdateOptions = CamelCaseKeys<EmailTemplatePatchBody>;
export type EmailDraftCreateOptions = CamelCaseKeys<EmailDraftCreateBody>;
export type EmailDraftUpdateOptions = CamelCaseKeys<EmailDraftPatchBody>;

function templateFromJson(json: EmailTemplateJson): EmailTemplate {
  return { id: json.id, displayName: json.display_name, tsxSource: json.tsx_source, themeId: json.theme_id ?? null };
}

function draftFromJson(json: EmailDraftJson): EmailDraft {
  return { ...templateFromJson(json), sentAt: json.sent_at_millis === null ? null : new Date(json.sent_at_millis) };
}

export class AdminEmails {
  constructor(private readonly context: AdminProjectContext) {}

  /** Who the requests go as: the admin key, or the owner's session. */
  private get asAdmin() {
    return { accessType: "admin", adminSession: this.context.adminSession } as const;
  }

  async listSentEmails(): Promise<SentEmail[]> {
    const body = await this.context.api.call("GET /internal/emails", this.asAdmin);
    return body.items.map((e) => ({
      id: e.id,
      to: e.to,
      subject: e.subject,
      sentAt: e.sent_at_millis === null ? null : new Date(e.sent_at_millis),
      error: e.error,
      status: e.status,
    }));
  }

  /** Mail that went to the dev outbox (no SMTP server), with its HTML and text, newest first. */
  async listOutboxEmails(): Promise<OutboxEmail[]> {
    const body = await this.context.api.call("GET /internal/emails/outbox", this.asAdmin);
    return body.items.map((e) => ({
      id: e.id,
      to: e.to,
      subject: e.subject,
      sentAt: new Date(e.sent_at_millis),
      html: e.html,
      text: e.text,
    }));
  }

  /** Sends a test e-mail; resolves with what happened rather than throwing on a refused connection. */
  async sendTestEmail(options: SendTestEmailOptions): Promise<SendTestEmailResult> {
    const body = await this.context.api.call("POST /internal/send-test-email", {
      ...this.asAdmin,
      body: { recipient_email: options.recipientEmail, email_config: snakeCaseKeys(options.emailConfig) },
    });
    return {
      success: body.success,
      errorMessage: body.error_message ?? null,
      ...(body.delivered_to ? { deliveredTo: body.delivered_to } : {}),
    };
  }

  async listEmailThemes(): Promise<EmailTheme[]> {
    const body = await this.context.api.call("GET /internal/email-themes", this.asAdmin);
    return body.themes.map((t) => ({ id: t.id, displayName: t.display_name }));
  }

  async getEmailTheme(id: string): Promise<EmailThemeWithSource> {
    const t = await this.context.api.call("GET /internal/email-themes/:theme_id", { ...this.asAdmin, params: { theme_id: id } });
    return { id: t.id, displayName: t.display_name, tsxSource: t.tsx_source };
  }

  /** A new theme, starting from the default light theme; resolves with its id. */
  async createEmailTheme(displayName: string): Promise<{ id: string }> {
    return this.context.api.call("POST /internal/email-themes", { ...this.asAdmin, body: { display_name: displayName } });
  }

  /** A new TSX source must render (else EMAIL_RENDERING_ERROR and nothing is saved). */
  async updateEmailTheme(id: string, update: EmailThemeUpdateOptions): Promise<void> {
    await this.context.api.call("PATCH /internal/email-themes/:theme_id", {
      ...this.asAdmin,
      params: { theme_id: id },
      body: snakeCaseKeys(update),
    });
  }

  /**
   * Deletes a theme; templates and drafts framed by it take the selected theme. The selected theme and the
   * built-in ones cannot be deleted (400).
   */
  async deleteEmailTheme(id: string): Promise<void> {
    await this.context.api.call("DELETE /internal/email-themes/:theme_id", { ...this.asAdmin, params: { theme_id: id } });
  }

  /** Mails `email` an invitation to sign in linking `callbackUrl`, which must be trusted (REDIRECT_URL_NOT_WHITELISTED). */
  async sendSignInInvitationEmail(email: string, callbackUrl: string): Promise<void> {
    await this.context.api.call("POST /internal/send-sign-in-invitation", {
      ...this.asAdmin,
      body: { email, callback_url: callbackUrl },
    });
  }

  async listEmailTemplates(): Promise<EmailTemplate[]> {
    const body = await this.context.api.call("GET /internal/email-templates", this.asAdmin);
    return body.templates.map(templateFromJson);
  }

  async getEmailTemplate(id: string): Promise<EmailTemplate> {
    return templateFromJson(
      await this.context.api.call("GET /internal/email-templates/:template_id", { ...this.asAdmin, params: { template_id: id } }),
    );
  }

  /** Needs the project's own SMTP server (REQUIRES_CUSTOM_EMAIL_SERVER on the shared one). */
  async createEmailTemplate(displayName: string): Promise<{ id: string }> {
    return this.context.api.call("POST /internal/email-templates", { ...this.asAdmin, body: { display_name: displayName } });
  }

  /** Saves the template if it renders, and resolves with the rendered HTML (a sample user and variables). */
  async updateEmailTemplate(id: string, update: EmailTemplateUpdateOptions): Promise<{ renderedHtml: string }> {
    const body = await this.context.api.call("PATCH /internal/email-templates/:template_id", {
      ...this.asAdmin,
      params: { template_id: id },
      body: snakeCaseKeys(update),
    });
    return { renderedHtml: body.rendered_html };
  }

  async deleteEmailTemplate(id: string): Promise<void> {
    await this.context.api.call("DELETE /internal/email-templates/:template_id", { ...this.asAdmin, params: { template_id: id } });
  }

  async listEmailDrafts(): Promise<EmailDraft[]> {
    const body = await this.context.api.call("GET /internal/email-drafts", this.asAdmin);
    return body.drafts.map(draftFromJson);
  }

  async getEmailDraft(id: string): Promise<EmailDraft> {
    return draftFromJson(
      await this.context.api.call("GET /internal/email-drafts/:draft_id", { ...this.asAdmin, params: { draft_id: id } }),
    );
  }

  async createEmailDraft(options: EmailDraftCreateOptions): Promise<{ id: string }> {
    return this.context.api.call("POST /internal/email-drafts", { ...this.asAdmin, body: snakeCaseKeys(options) });
  }

  async updateEmailDraft(id: string, update: EmailDraftUpdateOptions): Promise<void> {
    await this.context.api.call("PATCH /internal/email-drafts/:draft_id", {
      ...this.asAdmin,
      params: { draft_id: id },
      body: snakeCaseKeys(update),
    });
  }

  async deleteEmailDraft(id: string): Promise<void> {
    await this.context.api.call("DELETE /internal/email-drafts/:draft_id", { ...this.asAdmin, params: { draft_id: id } });
  }

  /** Renders a template (stored, or as TSX) in a theme (stored, as TSX, or none) with sample values, saving nothing. */
  async getEmailPreview(options: CamelCaseKeys<RenderEmailBody>): Promise<{ html: string; subject: string | null }> {
    const body = await this.context.api.call("POST /emails/render-email", { ...this.asAdmin, body: snakeCaseKeys(options) });
    return { html: body.html, subject: body.subject ?? null };
  }
}
