/**
 * Server-rendered markup of impersonation: the handler routes its page, and
 * StackProvider's banner renders nothing on the server (it reads the
 * session's mark only after mounting), so server HTML and hydration agree;
 * the mark names one refresh token. (The whole flow in a real browser, with
 * a second tab: apps/dashboard/test/browser/user-detail.test.ts.)
 */
import { impersonationMarkOf, isImpersonationSession, StackClientApp } from "@latchkey/js";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { ImpersonationBanner, StackHandler, StackProvider } from "../../src/index.ts";

const app = new StackClientApp({ projectId: "p", tokenStore: "memory", baseUrl: "http://127.0.0.1:9" });
const render = (node: React.ReactNode) => renderToString(<StackProvider app={app}>{node}</StackProvider>);

describe("impersonation markup", () => {
  it("routes /handler/impersonate to the page that signs in with the link's tokens", () => {
    expect(app.urls.impersonate).toBe("/handler/impersonate");
    expect(render(<StackHandler pathname="/handler/impersonate" />)).toMatch(/<h1 class="lk-title"[^>]*>Impersonating<\/h1>/);
  });

  it("renders no banner on the server, where no tab is impersonating", () => {
    const html = render(<p>app</p>);
    expect(html).toBe("<p>app</p>");
    expect(render(<ImpersonationBanner />)).toBe("");
  });

  it("marks one session: the mark is a short hash of its refresh token, another token's mark differs", () => {
    const mark = impersonationMarkOf("refresh-token-of-the-impersonation");
    expect(mark).toMatch(/^[0-9a-f]{8}$/);
    expect(impersonationMarkOf("refresh-token-of-the-impersonation")).toBe(mark);
    expect(impersonationMarkOf("refresh-token-of-a-later-sign-in")).not.toBe(mark);
    expect(mark).not.toContain("refresh");
  });

  it("sees no impersonation where no session or no mark cookie exists", () => {
    expect(isImpersonationSession("p", null)).toBe(false);
    expect(isImpersonationSession("p", "some-refresh-token")).toBe(false);
  });
});
