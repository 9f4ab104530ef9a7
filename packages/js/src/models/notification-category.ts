/**
 * A user's choice for one notification category (e.g. marketing mail).
 * Transactional mail (codes, resets) cannot be turned off.
 */
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { Session } from "../session/session.ts";
import type { NotificationPreferenceJson } from "./json.ts";

export interface NotificationCategoryContext {
  api: ApiClient;
  accessType: AccessType;
  session: Session | null;
  /** `me` for the signed-in user, else the user's id. */
  userIdOrMe: string;
  /** Called after a choice changed, so cached lists are read again. */
  changed?(): void;
}

export class NotificationCategory {
  readonly id: string;
  readonly name: string;
  readonly enabled: boolean;
  readonly canDisable: boolean;

  constructor(
    json: NotificationPreferenceJson,
    private readonly context: NotificationCategoryContext,
  ) {
    this.id = json.notification_category_id;
    this.name = json.notification_category_name;
    this.enabled = json.enabled;
    this.canDisable = json.can_disable;
  }

  async setEnabled(enabled: boolean): Promise<void> {
    const { api, accessType, session, userIdOrMe } = this.context;
    await api.call("PATCH /emails/notification-preference/:user_id/:notification_category_id", {
      accessType,
      session,
      params: { user_id: userIdOrMe, notification_category_id: this.id },
      body: { enabled },
    });
    this.context.changed?.();
  }
}

export async function listNotificationCategories(context: NotificationCategoryContext): Promise<NotificationCategory[]> {
  const { api, accessType, session, userIdOrMe } = context;
  const body = await api.call("GET /emails/notification-preference/:user_id", { accessType, session, params: { user_id: userIdOrMe } });
  return body.items.map((json) => new NotificationCategory(json, context));
}
