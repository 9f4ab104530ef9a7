/**
 * The Turnstile widget's container on the forms that can create an account:
 * there only when the app gives a site key (on the provider or the form),
 * labelled with the action the server expects for that form.
 */
import { StackClientApp } from "@latchkey/js";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { SignIn, SignUp, StackProvider } from "../../src/index.ts";
import { MagicLinkSignIn } from "../../src/components/sign-in.tsx";

const app = new StackClientApp({ projectId: "p", tokenStore: "memory", baseUrl: "http://127.0.0.1:9" });
const SITE_KEY = "1x00000000000000000000AA";

const render = (node: React.ReactNode, siteKey?: string) =>
  renderToString(
    <StackProvider app={app} turnstileSiteKey={siteKey}>
      {node}
    </StackProvider>,
  );

const containers = (html: string) => [...html.matchAll(/<div class="lk-turnstile" data-lk-turnstile="([^"]+)"><\/div>/g)].map((m) => m[1]);

describe("Turnstile widget container", () => {
  it("is absent without a site key", () => {
    for (const html of [render(<SignUp />), render(<MagicLinkSignIn />), render(<SignIn />), render(<SignUp turnstileSiteKey="" />)]) {
      expect(html).not.toContain("lk-turnstile");
    }
  });

  it("renders on the sign-up form for a site key on the provider or the form", () => {
    expect(containers(render(<SignUp />, SITE_KEY))).toEqual(["sign_up_with_credential"]);
    expect(containers(render(<SignUp turnstileSiteKey={SITE_KEY} />))).toEqual(["sign_up_with_credential"]);
  });

  it("renders on the sign-in-code form, never on the password sign-in form", () => {
    expect(containers(render(<MagicLinkSignIn />, SITE_KEY))).toEqual(["send_magic_link_email"]);
    expect(containers(render(<MagicLinkSignIn turnstileSiteKey={SITE_KEY} />))).toEqual(["send_magic_link_email"]);
    // Signing in with a password creates no account: no challenge there.
    expect(containers(render(<SignIn />, SITE_KEY))).toEqual([]);
  });

  it("sits before the error line and the submit button", () => {
    const html = render(<SignUp />, SITE_KEY);
    expect(html.indexOf("lk-turnstile")).toBeGreaterThan(html.indexOf('autocomplete="new-password"'));
    expect(html.indexOf("lk-turnstile")).toBeLessThan(html.indexOf(">Sign up</button>"));
  });
});
