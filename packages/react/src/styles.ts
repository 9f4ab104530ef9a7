/**
 * The components' stylesheet. Every colour, radius and font comes from a CSS
 * variable, so a host app themes them by setting `--lk-*` on any ancestor.
 */
export const STYLE_ELEMENT_ID = "latchkey-styles";

export const STYLES = `
.lk-root {
  --lk-font: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  --lk-text: #1a1a1f;
  --lk-muted: #5d5d6a;
  --lk-background: #ffffff;
  --lk-surface: #f6f6f9;
  --lk-border: #d9d9e0;
  --lk-primary: #4f46e5;
  --lk-primary-text: #ffffff;
  --lk-danger: #c62828;
  --lk-radius: 8px;
  --lk-focus: 0 0 0 3px color-mix(in srgb, var(--lk-primary) 35%, transparent);
  font-family: var(--lk-font);
  color: var(--lk-text);
}
.lk-impersonation-banner { position: sticky; top: 0; z-index: 1000; display: flex; flex-wrap: wrap; align-items: center; justify-content: center; gap: 8px 16px; padding: 8px 16px; background: #b45309; color: #ffffff; font-size: 0.9rem; }
.lk-impersonation-banner .lk-button { padding: 4px 10px; }
.lk-impersonation-error { font-weight: 600; }
.lk-card { max-width: 380px; margin: 48px auto; padding: 28px; background: var(--lk-background); border: 1px solid var(--lk-border); border-radius: var(--lk-radius); }
.lk-wide { max-width: 640px; }
.lk-brand { display: flex; align-items: center; gap: 10px; margin: 0 0 18px; font-weight: 600; }
.lk-brand-mark { width: 32px; height: 32px; object-fit: contain; border-radius: 6px; }
.lk-brand-full { display: block; max-width: 100%; max-height: 44px; object-fit: contain; }
.lk-title { margin: 0 0 20px; font-size: 1.4rem; }
.lk-title:focus { outline: none; }
.lk-section { padding: 20px 0; border-top: 1px solid var(--lk-border); }
.lk-section:first-of-type { border-top: none; padding-top: 0; }
.lk-section h2 { margin: 0 0 12px; font-size: 1.05rem; }
.lk-form { display: grid; gap: 14px; }
.lk-field { display: grid; gap: 6px; font-size: 0.9rem; }
.lk-input { font: inherit; padding: 9px 11px; border: 1px solid var(--lk-border); border-radius: var(--lk-radius); background: var(--lk-background); color: var(--lk-text); }
.lk-field-error { margin: 0; color: var(--lk-danger); }
.lk-input[aria-invalid="true"] { border-color: var(--lk-danger); }
.lk-input:focus-visible, .lk-button:focus-visible, .lk-link:focus-visible, .lk-menu-item:focus-visible { outline: none; box-shadow: var(--lk-focus); }
.lk-button { font: inherit; cursor: pointer; padding: 9px 14px; border: 1px solid transparent; border-radius: var(--lk-radius); background: var(--lk-primary); color: var(--lk-primary-text); }
a.lk-button { display: inline-block; text-decoration: none; }
.lk-button[disabled] { opacity: 0.6; cursor: progress; }
.lk-button-secondary { background: var(--lk-surface); color: var(--lk-text); border-color: var(--lk-border); }
.lk-button-danger { background: var(--lk-danger); }
.lk-alert { padding: 9px 11px; border-radius: var(--lk-radius); background: color-mix(in srgb, var(--lk-danger) 10%, transparent); color: var(--lk-danger); font-size: 0.9rem; }
.lk-success { padding: 9px 11px; border-radius: var(--lk-radius); background: var(--lk-surface); font-size: 0.9rem; }
.lk-muted { color: var(--lk-muted); font-size: 0.9rem; }
.lk-secret { font-family: ui-monospace, "SF Mono", Menlo, Consolas, monospace; word-break: break-all; color: var(--lk-text); }
/* Turnstile draws a 65px-high widget into this; reserving it keeps the form from jumping. */
.lk-turnstile { min-height: 65px; }
.lk-link { color: var(--lk-primary); }
.lk-link-button { margin-top: 14px; background: none; border: none; padding: 0; font: inherit; font-size: 0.9rem; cursor: pointer; text-decoration: underline; text-align: left; }
.lk-list { list-style: none; margin: 0; padding: 0; display: grid; gap: 8px; }
.lk-list-item { display: flex; flex-wrap: wrap; justify-content: space-between; align-items: center; gap: 12px; padding: 10px 12px; background: var(--lk-surface); border-radius: var(--lk-radius); font-size: 0.9rem; }
.lk-badge { display: inline-block; margin-left: 8px; padding: 1px 7px; border-radius: 999px; border: 1px solid var(--lk-border); font-size: 0.75rem; color: var(--lk-muted); }
.lk-check { display: flex; align-items: center; gap: 8px; cursor: pointer; }
.lk-list + .lk-form { margin-top: 16px; }
.lk-item-note { flex-basis: 100%; margin: 0; }
.lk-user-button { position: relative; display: inline-block; }
.lk-avatar { width: 36px; height: 36px; border-radius: 50%; padding: 0; display: inline-grid; place-items: center; font-weight: 600; overflow: hidden; }
.lk-avatar img { width: 100%; height: 100%; object-fit: cover; }
span.lk-avatar { background: var(--lk-surface); color: var(--lk-text); }
.lk-avatar-border { border: 1px solid var(--lk-border); }
.lk-message-card { text-align: center; }
.lk-actions { display: flex; justify-content: center; gap: 12px; margin-top: 16px; }
.lk-full-page { min-height: 100vh; display: grid; place-items: center; }
.lk-full-page > .lk-card { margin: 0 auto; }
.lk-visually-hidden { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.lk-menu { position: absolute; right: 0; top: calc(100% + 6px); min-width: 220px; padding: 6px; background: var(--lk-background); border: 1px solid var(--lk-border); border-radius: var(--lk-radius); box-shadow: 0 8px 24px rgb(0 0 0 / 12%); z-index: 1000; }
.lk-menu-header { padding: 8px 10px; border-bottom: 1px solid var(--lk-border); margin-bottom: 4px; font-size: 0.85rem; }
.lk-menu-item { display: block; width: 100%; text-align: left; font: inherit; padding: 8px 10px; border: none; background: none; color: var(--lk-text); border-radius: calc(var(--lk-radius) - 2px); cursor: pointer; }
.lk-menu-item:hover, .lk-menu-item:focus-visible { background: var(--lk-surface); }
.lk-menu-item[role="menuitemradio"]::before { content: ""; display: inline-block; width: 1.2em; }
.lk-menu-item[aria-checked="true"]::before { content: "✓"; }
.lk-menu-separated { margin-top: 4px; border-top: 1px solid var(--lk-border); border-radius: 0; }
.lk-menu-start { left: 0; right: auto; }
.lk-menu-form { padding: 8px; }
.lk-dialog { width: min(440px, calc(100vw - 32px)); padding: 24px; color: var(--lk-text); background: var(--lk-background); border: 1px solid var(--lk-border); border-radius: var(--lk-radius); box-shadow: 0 8px 24px rgb(0 0 0 / 12%); }
.lk-dialog::backdrop { background: rgb(0 0 0 / 40%); }
.lk-dialog h3 { margin: 0 0 14px; font-size: 1.05rem; }
.lk-dialog .lk-muted + .lk-row, .lk-dialog .lk-alert + .lk-row { margin-top: 14px; }
.lk-team-switcher { position: relative; display: inline-block; }
.lk-row { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
.lk-subsection { margin-top: 16px; padding: 14px; border: 1px solid var(--lk-border); border-radius: var(--lk-radius); }
.lk-subsection h3 { margin: 0 0 10px; font-size: 0.95rem; }
.lk-subsection + .lk-subsection { margin-top: 12px; }
.lk-danger-zone { margin-top: 16px; }
.lk-panel-caption { margin: 16px 0 0; }
.lk-oauth-buttons { display: grid; gap: 8px; }
.lk-oauth-button { display: flex; align-items: center; justify-content: center; gap: 10px; width: 100%; }
.lk-provider-mark { flex: none; }
.lk-connect { margin-top: 10px; }
.lk-separator { display: flex; align-items: center; gap: 10px; margin: 18px 0; color: var(--lk-muted); font-size: 0.85rem; }
.lk-separator::before, .lk-separator::after { content: ""; flex: 1; border-top: 1px solid var(--lk-border); }
`;
