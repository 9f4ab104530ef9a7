/**
 * Unsubscribe links for mail of a category that can be turned off. The token
 * is the user, tenancy and category sealed with the server secret
 * (AES-GCM): it cannot be guessed or altered, needs no table, and never
 * expires (a link in an old newsletter must still work). Anyone holding a
 * user's link can turn that one category off for that one user, no more.
 */
import { decryptWithSecret, encryptWithSecret } from "../../../lib/secrets.ts";
import type { NotificationCategory } from "./preferences.ts";
import type { Tenancy } from "../../../db/tenancy.ts";

const PURPOSE = "notification-unsubscribe";

export interface UnsubscribeTarget extends Tenancy {
  userId: string;
  categoryId: string;
}

export function unsubscribeToken(serverSecret: string, target: UnsubscribeTarget): string {
  const payload = { p: target.projectId, b: target.branchId, u: target.userId, c: target.categoryId };
  return encryptWithSecret(serverSecret, PURPOSE, JSON.stringify(payload));
}

/** The target of a token, or null when it was not made by this server (or was altered). */
export function readUnsubscribeToken(serverSecret: string, token: string): UnsubscribeTarget | null {
  try {
    const v = JSON.parse(decryptWithSecret(serverSecret, PURPOSE, token)) as Record<string, unknown>;
    if (typeof v.p !== "string" || typeof v.b !== "string" || typeof v.u !== "string" || typeof v.c !== "string") return null;
    return { projectId: v.p, branchId: v.b, userId: v.u, categoryId: v.c };
  } catch {
    return null;
  }
}

/** The link a message of `category` carries, or null for mail that cannot be turned off. */
export function unsubscribeLink(
  apiUrl: string,
  serverSecret: string,
  category: NotificationCategory,
  target: Omit<UnsubscribeTarget, "categoryId">,
): string | null {
  if (!category.canDisable) return null;
  const token = unsubscribeToken(serverSecret, { ...target, categoryId: category.id });
  return `${apiUrl}/api/v1/emails/unsubscribe?token=${encodeURIComponent(token)}`;
}
