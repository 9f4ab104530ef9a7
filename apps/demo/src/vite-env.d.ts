/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_LATCHKEY_API_URL: string;
  readonly VITE_LATCHKEY_PROJECT_ID: string;
  readonly VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: string;
  /** Optional: a Cloudflare Turnstile site key puts its widget on the sign-up and sign-in-code forms. */
  readonly VITE_LATCHKEY_TURNSTILE_SITE_KEY?: string;
}
