/**
 * Which theme frames a template or draft, on the wire and in the database.
 * Wire (@latchkey/shared api/email-admin.ts): `theme_id` is a theme's uuid,
 * `false` for no theme, or absent for the project's selected theme. Requests
 * may also send `null` to go back to the project's selected theme.
 */
import type { ThemeIdJson } from "@latchkey/shared";

export interface ThemeChoice {
  themeId: string | null;
  noTheme: boolean;
}

export function themeChoiceFromJson(value: ThemeIdJson | null): ThemeChoice {
  if (value === false) return { themeId: null, noTheme: true };
  return { themeId: value ? value.toLowerCase() : null, noTheme: false };
}

/** `{theme_id}` for a response: omitted when the project's selected theme applies. */
export function themeChoiceJson(choice: ThemeChoice): { theme_id?: ThemeIdJson } {
  if (choice.noTheme) return { theme_id: false };
  return choice.themeId ? { theme_id: choice.themeId } : {};
}
