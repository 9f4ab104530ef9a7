/**
 * What a template declares by rendering `<Subject value="…" />` or
 * `<NotificationCategory value="…" />` (email-helpers.ts): written while the
 * message renders, read by entry.ts once it has, and cleared before the next.
 */
export const declarations: { subject: string | null; notificationCategory: string | null } = {
  subject: null,
  notificationCategory: null,
};

export function clearDeclarations(): void {
  declarations.subject = null;
  declarations.notificationCategory = null;
}
