/**
 * What a preview renders with: a made-up recipient and values for every
 * variable the built-in templates use, so an admin sees a complete message.
 */
import type { TemplateProps } from "../render/types.ts";

export const SAMPLE_VARIABLES: Record<string, unknown> = {
  link: "https://example.com/handler/email-verification?code=sample-code",
  otp: "A1B2C3",
  teamDisplayName: "Example Team",
};

export const SAMPLE_USER: NonNullable<TemplateProps["user"]> = {
  displayName: "Jane Doe",
  primaryEmail: "jane.doe@example.com",
};

/** Shown in previews so the theme's footer appears; real mail gets the recipient's own link. */
export const SAMPLE_UNSUBSCRIBE_LINK = "https://example.com/unsubscribe";

/** The sample values, with the caller's variables taking precedence. */
export function sampleVariables(variables: Record<string, unknown> = {}): Record<string, unknown> {
  return { ...SAMPLE_VARIABLES, ...variables };
}
