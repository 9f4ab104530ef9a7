/**
 * Server-rendered markup of impersonation: the handler routes its page, and
 * StackProvider's banner renders nothing on the server (it reads the tab's
 * mark only after mounting), so server HTML and hydration agree. (The whole
 * flow in a real browser: apps/dashboard/test/browser/user-detail.test.ts.)
 */
import { StackClientApp } from "@latchkey/js";
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
});
