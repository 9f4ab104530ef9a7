/**
 * Server-rendered markup of the components: every input has its label, the
 * handler routes each path to its page, and the class names the stylesheet
 * themes are in place. (Behaviour in a real browser: test/browser.)
 */
import { StackClientApp } from "@latchkey/js";
import { renderToString } from "react-dom/server";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ForgotPassword, MFA, SignIn, SignUp, StackHandler, StackProvider } from "../../src/index.ts";

const app = new StackClientApp({ projectId: "p", tokenStore: "memory", baseUrl: "http://127.0.0.1:9" });
const render = (node: React.ReactNode, target = app) => renderToString(<StackProvider app={target}>{node}</StackProvider>);

/** Each <label for> points at an input, and each input has a label. */
function labelledInputs(html: string): string[] {
  const labels = [...html.matchAll(/<label for="([^"]+)">([^<]+)<\/label>/g)].map(([, id, text]) => [id!, text!] as const);
  const inputIds = [...html.matchAll(/<input[^>]* id="([^"]+)"/g)].map(([, id]) => id!);
  expect(inputIds.sort()).toEqual(labels.map(([id]) => id).sort());
  return labels.map(([, text]) => text);
}

describe("forms", () => {
  it("sign-in: labelled e-mail and password fields and a submit button", () => {
    const html = render(<SignIn />);
    expect(labelledInputs(html)).toEqual(["Email", "Password"]);
    expect(html).toMatch(/<button class="lk-button" type="submit"[^>]*>Sign in<\/button>/);
    expect(html).toContain('href="/handler/sign-up"');
    expect(html).toContain('href="/handler/forgot-password"');
  });

  it("forgot password: a labelled e-mail field, and a way back to sign in", () => {
    const html = render(<ForgotPassword />);
    expect(labelledInputs(html)).toEqual(["Email"]);
    expect(html).toMatch(/>Send reset link<\/button>/);
    expect(html).toContain('href="/handler/sign-in"');
  });

  describe("the MFA page", () => {
    afterEach(() => vi.unstubAllGlobals());

    it("takes the six digits in one labelled numeric field when a sign-in left its attempt code", () => {
      vi.stubGlobal("sessionStorage", { getItem: (key: string) => (key === "stack_mfa_attempt_code" ? "a".repeat(45) : null) });
      const html = render(<MFA />);
      expect(html).toMatch(/<h1 class="lk-title">Multi-Factor Authentication<\/h1>/);
      expect(html).toContain("Enter the six-digit code from your authenticator app");
      expect(labelledInputs(html)).toEqual(["Six-digit code"]);
      expect(html).toMatch(/<input[^>]* inputMode="numeric"[^>]* autoComplete="one-time-code"/);
    });

    it("without an attempt code, says so and links back to sign in", () => {
      const html = render(<MFA />);
      expect(html).toContain("Missing verification information. Please sign in again.");
      expect(html).toContain('href="/handler/sign-in"');
      expect(html).not.toContain("<input");
    });
  });

  it("sign-up: the password twice, and a link to sign in", () => {
    const html = render(<SignUp />);
    expect(labelledInputs(html)).toEqual(["Email", "Password", "Repeat password"]);
    expect(html).toMatch(/>Sign up<\/button>/);
    expect(html).toContain('href="/handler/sign-in"');
  });
});

describe("StackHandler", () => {
  it("shows the page the path names, under the default or a custom handler base", () => {
    expect(render(<StackHandler pathname="/handler/sign-in" />)).toMatch(/<h1 class="lk-title">Sign in<\/h1>/);
    expect(render(<StackHandler pathname="/handler/sign-up/" />)).toMatch(/<h1 class="lk-title">Create an account<\/h1>/);
    const custom = new StackClientApp({ projectId: "p", tokenStore: "memory", baseUrl: "http://127.0.0.1:9", urls: { handler: "/auth" } });
    expect(render(<StackHandler pathname="/auth/sign-in" />, custom)).toMatch(/>Sign in<\/h1>/);
  });

  it("routes the pages mailed links open", () => {
    expect(render(<StackHandler pathname="/handler/forgot-password" />)).toMatch(/>Reset your password<\/h1>/);
    expect(render(<StackHandler pathname="/handler/password-reset" />)).toMatch(/>Choose a new password<\/h1>/);
    expect(render(<StackHandler pathname="/handler/email-verification" />)).toMatch(/>Verify your e-mail<\/h1>/);
    expect(render(<StackHandler pathname="/handler/magic-link-callback" />)).toMatch(/>Sign in<\/h1>/);
  });

  it("routes the MFA page a sign-in that needs a second factor goes to", () => {
    expect(render(<StackHandler pathname="/handler/mfa" />)).toMatch(/>Multi-Factor Authentication<\/h1>/);
  });

  it("answers paths it does not serve with a not-found page", () => {
    const html = render(<StackHandler pathname="/handler/nope" />);
    expect(html).toMatch(/>Page not found<\/h1>/);
    expect(html).toContain("/handler/nope");
  });
});
