/**
 * Server-rendered markup of the OAuth components that needs no signed-in
 * user or loaded project: each provider's button names it in words beside a
 * decorative mark (Simple Icons, or the initial for the two it lacks), and
 * the handler routes the callback page. Everything else (the button group,
 * the connected-accounts section, useConnectedAccount, the flows), in a real
 * browser: test/browser/oauth.test.ts.
 */
import { OAUTH_PROVIDER_IDS, StackClientApp } from "@latchkey/js";
import { renderToString } from "react-dom/server";
import { siGithub } from "simple-icons";
import { describe, expect, it } from "vitest";
import { OAuthButton, OAUTH_PROVIDER_NAMES, StackHandler, StackProvider } from "../../src/index.ts";

const app = new StackClientApp({ projectId: "p", tokenStore: "memory", baseUrl: "http://127.0.0.1:9" });
const render = (node: React.ReactNode) => renderToString(<StackProvider app={app}>{node}</StackProvider>);

describe("OAuthButton", () => {
  it.each(OAUTH_PROVIDER_IDS)("%s: names the provider in words for sign-in and sign-up, beside a mark hidden from screen readers", (id) => {
    const name = OAUTH_PROVIDER_NAMES[id];
    const signIn = render(<OAuthButton provider={id} type="sign-in" />);
    expect(signIn).toMatch(
      new RegExp(`<button class="lk-button lk-button-secondary lk-oauth-button" type="button">.*Sign in with ${name}</span></button>`),
    );
    expect(signIn).toMatch(/<svg class="lk-provider-mark"[^>]* aria-hidden="true" focusable="false"/);
    expect(render(<OAuthButton provider={id} type="sign-up" />)).toContain(`Sign up with ${name}`);
  });

  it("draws Simple Icons' mark where it has one, and the initial in a circle for Microsoft and LinkedIn", () => {
    expect(render(<OAuthButton provider="github" type="sign-in" />)).toContain(`d="${siGithub.path}"`);
    for (const [id, initial] of [
      ["microsoft", "M"],
      ["linkedin", "L"],
    ] as const) {
      const html = render(<OAuthButton provider={id} type="sign-in" />);
      expect(html).toContain("<circle");
      expect(html).toMatch(new RegExp(`<text[^>]*>${initial}</text>`));
      expect(html).not.toContain("<path");
    }
  });
});

describe("the oauth-callback page", () => {
  it("is routed by the handler, and says it is signing the user in (announced) until the flow ends", () => {
    const html = render(<StackHandler pathname="/handler/oauth-callback" />);
    expect(html).toMatch(/<h1 class="lk-title">Signing you in<\/h1>/);
    expect(html).toMatch(/<p class="lk-muted" role="status">Signing you in…<\/p>/);
  });
});
