/**
 * Once the callback knows the flow, a coded error is not shown on our page
 * but sent back to the app, which can tell its user what happened: the
 * browser goes to the app's redirect_uri (else its error_redirect_url),
 * provided the project trusts it, with the error in the query. With no
 * trusted address to go to, the error is answered as usual.
 */
import type { KnownError } from "@latchkey/shared";
import type { ProjectConfig } from "../../projects/config.ts";
import { isTrustedUrl } from "../../projects/trusted-urls.ts";
import type { OAuthFlowData } from "./flows.ts";

export function errorRedirectLocation(
  config: Pick<ProjectConfig, "allow_localhost" | "domains">,
  flow: Pick<OAuthFlowData, "redirect_uri" | "error_redirect_url" | "after_callback_redirect_url" | "state">,
  error: KnownError,
): string | null {
  const target = [flow.redirect_uri, flow.error_redirect_url].find((url) => url !== null && isTrustedUrl(config, url));
  if (!target) return null;
  const url = new URL(target);
  // `error` and `error_description` for OAuth clients; the rest for Latchkey's SDK, which rebuilds the coded error.
  url.searchParams.set("error", "server_error");
  url.searchParams.set("error_description", error.message);
  url.searchParams.set("errorCode", error.code);
  url.searchParams.set("message", error.message);
  url.searchParams.set("details", JSON.stringify(error.details ?? {}));
  // The app's own state: its SDK shows the error only for a flow this browser started, so a crafted link cannot put words on its page.
  url.searchParams.set("state", flow.state);
  if (flow.after_callback_redirect_url && isTrustedUrl(config, flow.after_callback_redirect_url)) {
    url.searchParams.set("after_callback_redirect_url", flow.after_callback_redirect_url);
  }
  return url.toString();
}
