/**
 * Themes the components inside it: each colour (and the corner radius) set
 * here becomes the matching `--lk-*` variable of every component below, in
 * light mode and, with `dark`, when the system prefers dark.
 */
import { useId, type ReactNode } from "react";

export interface ThemeColors {
  background: string;
  foreground: string;
  primary: string;
  primaryForeground: string;
  /** Secondary buttons' and menus' surfaces. */
  muted: string;
  mutedForeground: string;
  destructive: string;
  border: string;
}

export interface ThemeConfig {
  light?: Partial<ThemeColors>;
  dark?: Partial<ThemeColors>;
  /** Any CSS length, e.g. `12px`. */
  radius?: string;
}

const VARIABLES: Record<keyof ThemeColors, string> = {
  background: "--lk-background",
  foreground: "--lk-text",
  primary: "--lk-primary",
  primaryForeground: "--lk-primary-text",
  muted: "--lk-surface",
  mutedForeground: "--lk-muted",
  destructive: "--lk-danger",
  border: "--lk-border",
};

/** A value that cannot end its declaration or rule: the theme is the app's, but it is written into a stylesheet. */
const SAFE_VALUE = /^[^;{}<>\\]*$/;

export function StackTheme({ theme = {}, children, nonce }: { theme?: ThemeConfig; children?: ReactNode; nonce?: string }) {
  // useId's ":" are not valid in an unquoted selector; the attribute value is quoted below anyway.
  const id = useId().replace(/[^a-zA-Z0-9_-]/g, "");
  const scope = `[data-lk-theme="${id}"] .lk-root`;
  const light = declarations({ ...theme.light }, theme.radius);
  const dark = declarations({ ...theme.dark });
  const css = [light ? `${scope} { ${light} }` : "", dark ? `@media (prefers-color-scheme: dark) { ${scope} { ${dark} } }` : ""].join("\n");
  return (
    <div data-lk-theme={id} style={{ display: "contents" }}>
      {css.trim() ? <style nonce={nonce}>{css}</style> : null}
      {children}
    </div>
  );
}

function declarations(colors: Partial<ThemeColors>, radius?: string): string {
  const entries = Object.entries(colors).flatMap(([name, value]) => {
    const variable = VARIABLES[name as keyof ThemeColors];
    return variable && typeof value === "string" ? [[variable, value] as const] : [];
  });
  if (radius !== undefined) entries.push(["--lk-radius", radius]);
  return entries
    .filter(([, value]) => SAFE_VALUE.test(value))
    .map(([variable, value]) => `${variable}: ${value};`)
    .join(" ");
}
