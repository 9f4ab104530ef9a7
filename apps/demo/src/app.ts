/**
 * The one Latchkey object a host app needs: which server and project to
 * use, and where to keep the session (cookies on this site).
 */
import { StackClientApp } from "@latchkey/js";

export const stackApp = new StackClientApp({
  baseUrl: import.meta.env.VITE_LATCHKEY_API_URL,
  projectId: import.meta.env.VITE_LATCHKEY_PROJECT_ID,
  publishableClientKey: import.meta.env.VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY,
  tokenStore: "cookie",
});
