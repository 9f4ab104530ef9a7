/**
 * `npm start -w @latchkey/dev-oidc-provider` (and `npm run demo`): the
 * development OpenID provider on OIDC_PORT (default 8114), accepting the
 * callbacks of the Latchkey server at LATCHKEY_API_URL (default
 * http://localhost:8102). Start that server with, for each provider to send
 * here, STACK_<PROVIDER>_CLIENT_ID=MOCK and STACK_<PROVIDER>_CLIENT_SECRET=MOCK,
 * and STACK_OAUTH_MOCK_URL set to the URL printed below.
 */
import { startDevOidcProvider } from "./provider.ts";

const provider = await startDevOidcProvider({
  port: Number(process.env.OIDC_PORT ?? 8114),
  host: process.env.OIDC_HOST ?? "localhost",
  apiUrls: (process.env.LATCHKEY_API_URL ?? "http://localhost:8102").split(","),
  // Development and tests only (see DevOidcProviderOptions).
  rotateRefreshTokens: process.env.OIDC_ROTATE_REFRESH_TOKENS === "true",
});
console.log(`Development OpenID provider at ${provider.url} (STACK_OAUTH_MOCK_URL=${provider.url})`);
const stop = () => void provider.close().then(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
