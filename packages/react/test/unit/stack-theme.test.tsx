/**
 * StackTheme's stylesheet: each colour and the radius become the components'
 * `--lk-*` variables, under the theme's own scope (dark ones when the system
 * prefers dark); a value that could break out of its declaration is dropped.
 * (The theme applied in a real browser: test/browser/components.test.ts.)
 */
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import * as react from "../../src/index.ts";
import { StackTheme } from "../../src/index.ts";

function stylesheet(html: string): string {
  return /<style[^>]*>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? "";
}

describe("StackTheme", () => {
  it("writes the theme into the components' variables, light and dark", () => {
    const html = renderToString(
      <StackTheme theme={{ light: { primary: "#123456", foreground: "black" }, dark: { background: "#000" }, radius: "4px" }}>
        <p>inside</p>
      </StackTheme>,
    );
    const id = /data-lk-theme="([^"]+)"/.exec(html)?.[1];
    expect(id).toBeTruthy();
    const css = stylesheet(html).replace(/&quot;/g, '"');
    expect(css).toContain(`[data-lk-theme="${id}"] .lk-root { --lk-primary: #123456; --lk-text: black; --lk-radius: 4px; }`);
    expect(css).toContain(`@media (prefers-color-scheme: dark) { [data-lk-theme="${id}"] .lk-root { --lk-background: #000; } }`);
    expect(html).toContain("<p>inside</p>");
  });

  it("drops values that could end the declaration or the stylesheet", () => {
    const html = renderToString(
      <StackTheme theme={{ light: { primary: "red; } body { display: none", border: "</style><script>", muted: "#eee" } }} />,
    );
    const css = stylesheet(html);
    expect(css).toContain("--lk-surface: #eee;");
    expect(css).not.toContain("--lk-primary");
    expect(css).not.toContain("--lk-border");
    expect(html).not.toContain("<script>");
  });

  it("writes no stylesheet for an empty theme", () => {
    expect(renderToString(<StackTheme />)).not.toContain("<style");
  });
});

describe("@latchkey/react re-exports @latchkey/js", () => {
  it("has the SDK's apps and errors", () => {
    expect(typeof react.StackClientApp).toBe("function");
    expect(typeof react.StackServerApp).toBe("function");
    expect(typeof react.StackAdminApp).toBe("function");
    expect(typeof react.KnownErrors.UserNotFound).toBe("function");
    // The page keeps its name (the SDK's TeamInvitation is a type only).
    expect(typeof react.TeamInvitation).toBe("function");
  });
});
