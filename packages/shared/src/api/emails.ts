/** Sent e-mails as the admin list shows them (SPEC §3 "Sent email"). */
export interface SentEmailJson {
  id: string;
  to: string[];
  subject: string;
  /** When it was handed to the SMTP server (or to the dev outbox); null while queued or after failing. */
  sent_at_millis: number | null;
  /** The last delivery error; null once sent. */
  error: string | null;
}

/** `POST /internal/send-test-email`. */
export interface SendTestEmailResultJson {
  success: boolean;
  error_message?: string;
}

/** A user's preference for one notification category (WIRE §2.7). */
export interface NotificationPreferenceJson {
  can_disable: boolean;
  enabled: boolean;
  notification_category_id: string;
  notification_category_name: string;
}

/** `theme_id` of a template or draft: a theme's id, `false` for none; absent means the project's selected theme. */
export type ThemeIdJson = string | false;

export interface EmailThemeJson {
  id: string;
  display_name: string;
  tsx_source: string;
}

export interface EmailTemplateJson {
  id: string;
  display_name: string;
  tsx_source: string;
  theme_id?: ThemeIdJson;
}

export interface EmailDraftJson extends EmailTemplateJson {
  sent_at_millis?: number;
}
