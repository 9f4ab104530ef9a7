/// <reference types="vite/client" />

interface ImportMetaEnv {
  readonly VITE_LATCHKEY_API_URL: string;
  readonly VITE_LATCHKEY_PROJECT_ID: string;
  readonly VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: string;
}
