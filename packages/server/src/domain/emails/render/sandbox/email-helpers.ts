/**
 * The helpers module that templates and themes written for the wire
 * contract import ("@stackframe/emails", see entry.ts), so one written for
 * another server of that contract renders here unchanged. Its types (`Props`,
 * `ThemeProps`) exist only in TypeScript and are erased when the module is
 * compiled; what remains are these components.
 */
import * as React from "react";
import { Img } from "@react-email/img";
import { declarations } from "./declarations.ts";
import { current, type ProjectLogos } from "./project-logos.ts";

function declaredValue(component: string, value: unknown): string {
  if (typeof value !== "string") throw new Error(`The "value" of <${component}> must be a string`);
  return value;
}

/** Sets the message's subject (a `subject` export of the template, when there is one, wins). */
export function Subject({ value }: { value: unknown }): null {
  declarations.subject = declaredValue("Subject", value);
  return null;
}

/** Names the notification category the message belongs to ("Transactional", "Marketing"). */
export function NotificationCategory({ value }: { value: unknown }): null {
  declarations.notificationCategory = declaredValue("NotificationCategory", value);
  return null;
}

export function Logo({ logoUrl }: { logoUrl: string }): React.ReactElement {
  return React.createElement(
    "div",
    { className: "flex gap-2 items-center" },
    React.createElement(Img, { src: logoUrl, alt: "Logo", className: "h-8" }),
  );
}

export function FullLogo({ logoFullUrl }: { logoFullUrl: string }): React.ReactElement {
  return React.createElement(Img, { src: logoFullUrl, alt: "Full Logo", className: "h-16" });
}

/**
 * The project's logo for a light or dark theme: the full logo when there is one, else the small one, else
 * nothing. `data` is the theme's `projectLogos` prop; without it, the logos of the project the mail is for.
 */
export function ProjectLogo({ data, mode = "light" }: { data?: ProjectLogos; mode?: "light" | "dark" }): React.ReactElement | null {
  const urls = data ?? current.logos;
  const full = mode === "dark" ? (urls.logoFullDarkModeUrl ?? urls.logoFullUrl) : urls.logoFullUrl;
  if (full) return React.createElement(FullLogo, { logoFullUrl: full });
  const small = mode === "dark" ? (urls.logoDarkModeUrl ?? urls.logoUrl) : urls.logoUrl;
  return small ? React.createElement(Logo, { logoUrl: small }) : null;
}
