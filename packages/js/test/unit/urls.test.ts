import { describe, expect, it } from "vitest";
import { HANDLER_PAGES, handlerPageOf, resolveHandlerUrls } from "../../src/urls/handler-urls.ts";
import { UntrustedRedirectError, trustedRedirect } from "../../src/urls/redirect.ts";

describe("resolveHandlerUrls", () => {
  it("defaults to /handler pages, home / and redirects to home", () => {
    const urls = resolveHandlerUrls();
    expect(urls).toMatchObject({
      handler: "/handler",
      signIn: "/handler/sign-in",
      signUp: "/handler/sign-up",
      signOut: "/handler/sign-out",
      accountSettings: "/handler/account-settings",
      oauthCallback: "/handler/oauth-callback",
      home: "/",
      afterSignIn: "/",
      afterSignUp: "/",
      afterSignOut: "/",
    });
    for (const [page, segment] of Object.entries(HANDLER_PAGES)) {
      expect(urls[page as keyof typeof HANDLER_PAGES]).toBe(`/handler/${segment}`);
    }
  });

  it("puts pages under a custom handler base (trailing slash dropped) and keeps explicit pages", () => {
    const urls = resolveHandlerUrls({ handler: "/auth/", signIn: "/login" });
    expect(urls.handler).toBe("/auth");
    expect(urls.signUp).toBe("/auth/sign-up");
    expect(urls.signIn).toBe("/login");
  });

  it("accepts / as the handler base", () => {
    expect(resolveHandlerUrls({ handler: "/" }).signIn).toBe("/sign-in");
  });

  it("throws when the handler path does not start with '/'", () => {
    expect(() => resolveHandlerUrls({ handler: "handler" })).toThrow(`The handler path must start with '/' (got "handler").`);
    expect(() => resolveHandlerUrls({ handler: "https://x.example/handler" })).toThrow("must start with '/'");
  });

  it("derives after-sign-in/out from home and after-sign-up from after-sign-in", () => {
    expect(resolveHandlerUrls({ home: "/app" })).toMatchObject({
      home: "/app",
      afterSignIn: "/app",
      afterSignUp: "/app",
      afterSignOut: "/app",
    });
    expect(resolveHandlerUrls({ home: "/app", afterSignIn: "/dash" })).toMatchObject({
      afterSignIn: "/dash",
      afterSignUp: "/dash",
      afterSignOut: "/app",
    });
    expect(resolveHandlerUrls({ afterSignUp: "/welcome" })).toMatchObject({ afterSignIn: "/", afterSignUp: "/welcome" });
  });
});

describe("handlerPageOf", () => {
  const urls = resolveHandlerUrls({ signIn: "https://app.example/login?x=1" });

  it("finds the page a path shows, ignoring trailing slashes", () => {
    expect(handlerPageOf(urls, "/handler/sign-up/")).toBe("signUp");
    expect(handlerPageOf(urls, "/handler/mfa")).toBe("mfa");
    expect(handlerPageOf(urls, "/login")).toBe("signIn");
  });

  it("is null for other paths", () => {
    expect(handlerPageOf(urls, "/handler/nope")).toBeNull();
    expect(handlerPageOf(urls, "/handler/sign-in")).toBeNull();
    expect(handlerPageOf(urls, "/")).toBeNull();
  });
});

describe("trustedRedirect", () => {
  const origin = "https://app.example";

  it("keeps relative paths as they are", () => {
    expect(trustedRedirect("/dashboard?tab=2#top", origin)).toBe("/dashboard?tab=2#top");
    expect(trustedRedirect("/", null)).toBe("/");
  });

  it("makes a same-origin absolute URL relative", () => {
    expect(trustedRedirect("https://app.example/a/b?q=1#z", origin)).toBe("/a/b?q=1#z");
  });

  it.each([
    ["a protocol-relative URL", "//evil.example/x"],
    ["a backslash protocol-relative URL", "/\\evil.example"],
    ["another origin", "https://evil.example/a"],
    ["another scheme on the same host", "http://app.example/a"],
    ["another port", "https://app.example:8443/a"],
    ["a javascript: URL", "javascript:alert(1)"],
    // Browsers drop tabs and newlines inside URLs: these are "//evil.example/x" once parsed.
    ["a tab between the slashes", "/\t/evil.example/x"],
    ["a newline and a backslash", "/\n\\evil.example"],
  ])("rejects %s", (_name, url) => {
    expect(() => trustedRedirect(url, origin)).toThrow(UntrustedRedirectError);
  });

  it("never returns a path a browser would read as another host", () => {
    expect(trustedRedirect("https://app.example//evil.example/p", origin)).toBe("/evil.example/p");
    expect(trustedRedirect("https://app.example/\\evil.example", origin)).toBe("/evil.example");
  });

  it("resolves a bare relative reference to a path on this origin", () => {
    expect(trustedRedirect("dashboard?x=1", origin)).toBe("/dashboard?x=1");
  });

  it("rejects absolute URLs when the page's origin is unknown", () => {
    expect(() => trustedRedirect("https://app.example/a", null)).toThrow(UntrustedRedirectError);
  });

  it("says the URL is not trusted and should be relative", () => {
    const error = (() => {
      try {
        trustedRedirect("//evil.example", origin);
      } catch (e) {
        return e as UntrustedRedirectError;
      }
      throw new Error("did not throw");
    })();
    expect(error.name).toBe("UntrustedRedirectError");
    expect(error.url).toBe("//evil.example");
    expect(error.message).toContain('The redirect URL "//evil.example" is not trusted');
    expect(error.message).toContain("should be relative");
  });
});
