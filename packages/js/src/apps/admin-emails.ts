/**
 * An admin app's e-mail tools: the project's sent mail, SMTP tests, themes,
 * templates and drafts (TSX rendered by the server's sandbox), and previews.
 * Themes, templates and drafts are plain snapshots; change them through the
 * app's methods.
 */
import { withoutUndefined } from "../models/case.ts";
import type { AdminApi } from "./admin-app.ts";
import type {
  EmailDraftJson,
  EmailTemplateJson,
  EmailThemeJson,
  SendTestEmailResultJson,
  SentEmailJson,
} from "../models/json.ts";

/** A theme's id, false for no theme, or null for the project's selected theme. */
export type ThemeChoice = string | false | null;

export interface SentEmail {
  id: string;
  to: string[];
  subject: string;
  sentAt: Date | null;
  error: string | null;
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

export interface SmtpSettings {
  host: string;
  port: number;
  username: string;
  password: string;
  senderEmail: string;
  senderName: string;
}

function templateFromJson(json: EmailTemplateJson): EmailTemplate {
  return { id: json.id, displayName: json.display_name, tsxSource: json.tsx_source, themeId: json.theme_id ?? null };
}

function draftFromJson(json: EmailDraftJson): EmailDraft {
  return { ...templateFromJson(json), sentAt: json.sent_at_millis === undefined ? null : new Date(json.sent_at_millis) };
}

export class AdminEmails {
  constructor(private readonly admin: AdminApi) {}

  async listSentEmails(): Promise<SentEmail[]> {
    const body = await this.admin<{ items: SentEmailJson[] }>("/internal/emails");
    return body.items.map((e) => ({ id: e.id, to: e.to, subject: e.subject, sentAt: e.sent_at_millis === null ? null : new Date(e.sent_at_millis), error: e.error }));
  }

  /** Tries SMTP settings at once; resolves with what happened rather than throwing on a refused connection. */
  async sendTestEmail(options: { recipientEmail: string; emailConfig: SmtpSettings }): Promise<{ success: boolean; errorMessage: string | null }> {
    const c = options.emailConfig;
    const body = await this.admin<SendTestEmailResultJson>("/internal/send-test-email", {
      method: "POST",
      body: {
        recipient_email: options.recipientEmail,
        email_config: { host: c.host, port: c.port, username: c.username, password: c.password, sender_email: c.senderEmail, sender_name: c.senderName },
      },
    });
    return { success: body.success, errorMessage: body.error_message ?? null };
  }

  async listEmailThemes(): Promise<EmailTheme[]> {
    const body = await this.admin<{ themes: { id: string; display_name: string }[] }>("/internal/email-themes");
    return body.themes.map((t) => ({ id: t.id, displayName: t.display_name }));
  }

  async getEmailTheme(id: string): Promise<EmailThemeWithSource> {
    const t = await this.admin<EmailThemeJson>(`/internal/email-themes/${encodeURIComponent(id)}`);
    return { id: t.id, displayName: t.display_name, tsxSource: t.tsx_source };
  }

  /** A new theme, starting from the default light theme; resolves with its id. */
  async createEmailTheme(displayName: string): Promise<{ id: string }> {
    return this.admin<{ id: string }>("/internal/email-themes", { method: "POST", body: { display_name: displayName } });
  }

  /** A new TSX source must render (else EMAIL_RENDERING_ERROR and nothing is saved). */
  async updateEmailTheme(id: string, update: { displayName?: string; tsxSource?: string }): Promise<void> {
    await this.admin(`/internal/email-themes/${encodeURIComponent(id)}`, {
      method: "PATCH",
      body: withoutUndefined({ display_name: update.displayName, tsx_source: update.tsxSource }),
    });
  }

  async listEmailTemplates(): Promise<EmailTemplate[]> {
    const body = await this.admin<{ templates: EmailTemplateJson[] }>("/internal/email-templates");
    return body.templates.map(templateFromJson);
  }

  async getEmailTemplate(id: string): Promise<EmailTemplate> {
    return templateFromJson(await this.admin<EmailTemplateJson>(`/internal/email-templates/${encodeURIComponent(id)}`));
  }

  /** Needs the project's own SMTP server (REQUIRES_CUSTOM_EMAIL_SERVER on the shared one). */
  async createEmailTemplate(displayName: string): Promise<{ id: string }> {
    return this.admin<{ id: string }>("/internal/email-templates", { method: "POST", body: { display_name: displayName } });
  }

  /** Saves the template if it renders, and resolves with the rendered HTML (a sample user and variables). */
  async updateEmailTemplate(id: string, update: { tsxSource?: string; themeId?: ThemeChoice }): Promise<{ renderedHtml: string }> {
    const body = await this.admin<{ rendered_html: string }>(`/internal/email-templates/${encodeURIComponent(id)}`, {
      method: "PATCH",
      body: withoutUndefined({ tsx_source: update.tsxSource, theme_id: update.themeId }),
    });
    return { renderedHtml: body.rendered_html };
  }

  async deleteEmailTemplate(id: string): Promise<void> {
    await this.admin(`/internal/email-templates/${encodeURIComponent(id)}`, { method: "DELETE" });
  }

  async listEmailDrafts(): Promise<EmailDraft[]> {
    const body = await this.admin<{ drafts: EmailDraftJson[] }>("/internal/email-drafts");
    return body.drafts.map(draftFromJson);
  }

  async getEmailDraft(id: string): Promise<EmailDraft> {
    return draftFromJson(await this.admin<EmailDraftJson>(`/internal/email-drafts/${encodeURIComponent(id)}`));
  }

  async createEmailDraft(options: { displayName: string; tsxSource?: string; themeId?: ThemeChoice }): Promise<{ id: string }> {
    return this.admin<{ id: string }>("/internal/email-drafts", {
      method: "POST",
      body: withoutUndefined({ display_name: options.displayName, tsx_source: options.tsxSource, theme_id: options.themeId }),
    });
  }

  async updateEmailDraft(id: string, update: { displayName?: string; tsxSource?: string; themeId?: ThemeChoice }): Promise<void> {
    await this.admin(`/internal/email-drafts/${encodeURIComponent(id)}`, {
      method: "PATCH",
      body: withoutUndefined({ display_name: update.displayName, tsx_source: update.tsxSource, theme_id: update.themeId }),
    });
  }

  async deleteEmailDraft(id: string): Promise<void> {
    await this.admin(`/internal/email-drafts/${encodeURIComponent(id)}`, { method: "DELETE" });
  }

  /** Renders a template (stored, or as TSX) in a theme (stored, as TSX, or none) with sample values, saving nothing. */
  async getEmailPreview(options: {
    templateId?: string;
    templateTsxSource?: string;
    themeId?: ThemeChoice;
    themeTsxSource?: string;
    variables?: Record<string, unknown>;
  }): Promise<{ html: string; subject: string | null }> {
    const body = await this.admin<{ html: string; subject?: string }>("/emails/render-email", {
      method: "POST",
      body: withoutUndefined({
        template_id: options.templateId,
        template_tsx_source: options.templateTsxSource,
        theme_id: options.themeId,
        theme_tsx_source: options.themeTsxSource,
        variables: options.variables,
      }),
    });
    return { html: body.html, subject: body.subject ?? null };
  }
}
