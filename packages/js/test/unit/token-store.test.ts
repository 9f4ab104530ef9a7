import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { COOKIE_POLL_MILLIS, CookieTokenStore, MemoryTokenStore } from "../../src/session/token-store.ts";

/** A minimal browser cookie jar behind `document.cookie` (name=value pairs; Max-Age=0 deletes). */
class FakeCookieDocument {
  readonly jar = new Map<string, string>();
  readonly writes: string[] = [];

  get cookie(): string {
    return [...this.jar].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  set cookie(text: string) {
    this.writes.push(text);
    const [pair = "", ...attributes] = text.split(";").map((part) => part.trim());
    const index = pair.indexOf("=");
    const name = pair.slice(0, index);
    const maxAge = attributes.find((a) => a.toLowerCase().startsWith("max-age="));
    if (maxAge !== undefined && Number(maxAge.slice("max-age=".length)) <= 0) this.jar.delete(name);
    else this.jar.set(name, pair.slice(index + 1));
  }
}

describe("MemoryTokenStore", () => {
  it("starts empty and round-trips tokens", () => {
    const store = new MemoryTokenStore();
    expect(store.read()).toEqual({ accessToken: null, refreshToken: null });
    store.write({ accessToken: "at", refreshToken: "rt" });
    expect(store.read()).toEqual({ accessToken: "at", refreshToken: "rt" });
    store.write({ accessToken: null, refreshToken: null });
    expect(store.read()).toEqual({ accessToken: null, refreshToken: null });
  });

  it("starts from the given tokens", () => {
    expect(new MemoryTokenStore({ accessToken: "a", refreshToken: "r" }).read()).toEqual({ accessToken: "a", refreshToken: "r" });
  });
});

describe("CookieTokenStore without a document (Node)", () => {
  it("reads nothing and writes nothing", () => {
    const store = new CookieTokenStore("p1");
    store.write({ accessToken: "a", refreshToken: "r" });
    expect(store.read()).toEqual({ accessToken: null, refreshToken: null });
    const listener = vi.fn();
    store.subscribe(listener)();
    expect(listener).not.toHaveBeenCalled();
  });
});

describe("CookieTokenStore in a browser", () => {
  let doc: FakeCookieDocument;

  beforeEach(() => {
    doc = new FakeCookieDocument();
    vi.stubGlobal("document", doc);
  });

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it("writes stack-refresh-<projectId> and stack-access cookies with their lifetimes", () => {
    const store = new CookieTokenStore("p1");
    store.write({ accessToken: "at.1", refreshToken: "rt 1" });
    expect(store.refreshCookieName).toBe("stack-refresh-p1");
    expect(doc.jar.get("stack-refresh-p1")).toBe(encodeURIComponent("rt 1"));
    expect(decodeURIComponent(doc.jar.get("stack-access") ?? "")).toBe('["rt 1","at.1"]');
    expect(doc.writes).toEqual([
      `stack-refresh-p1=rt%201; Path=/; Max-Age=31536000; SameSite=Lax`,
      `stack-access=${encodeURIComponent('["rt 1","at.1"]')}; Path=/; Max-Age=86400; SameSite=Lax`,
    ]);
  });

  it("round-trips tokens", () => {
    const store = new CookieTokenStore("p1");
    store.write({ accessToken: "at", refreshToken: "rt" });
    expect(new CookieTokenStore("p1").read()).toEqual({ accessToken: "at", refreshToken: "rt" });
  });

  it("keeps projects apart", () => {
    new CookieTokenStore("p1").write({ accessToken: "at", refreshToken: "rt" });
    expect(new CookieTokenStore("p2").read()).toEqual({ accessToken: null, refreshToken: null });
  });

  it("ignores an access token issued beside another refresh token", () => {
    doc.cookie = "stack-refresh-p1=rt-new; Path=/; Max-Age=100";
    doc.cookie = `stack-access=${encodeURIComponent('["rt-old","at-old"]')}; Path=/; Max-Age=100`;
    expect(new CookieTokenStore("p1").read()).toEqual({ accessToken: null, refreshToken: "rt-new" });
  });

  it("treats an unreadable access cookie as absent", () => {
    doc.cookie = "stack-refresh-p1=rt; Path=/; Max-Age=100";
    doc.cookie = "stack-access=%7Bnot-json; Path=/; Max-Age=100";
    expect(new CookieTokenStore("p1").read()).toEqual({ accessToken: null, refreshToken: "rt" });
  });

  it("deletes both cookies on sign-out, and only the access cookie when the access token is gone", () => {
    const store = new CookieTokenStore("p1");
    store.write({ accessToken: "at", refreshToken: "rt" });
    store.write({ accessToken: null, refreshToken: "rt" });
    expect([...doc.jar.keys()]).toEqual(["stack-refresh-p1"]);
    expect(doc.writes.at(-1)).toBe("stack-access=; Path=/; Max-Age=0; SameSite=Lax");
    store.write({ accessToken: null, refreshToken: null });
    expect(doc.jar.size).toBe(0);
    expect(store.read()).toEqual({ accessToken: null, refreshToken: null });
  });

  it("adds Secure on https pages", () => {
    vi.stubGlobal("location", { protocol: "https:" });
    new CookieTokenStore("p1").write({ accessToken: "at", refreshToken: "rt" });
    expect(doc.writes.every((w) => w.endsWith("; SameSite=Lax; Secure"))).toBe(true);
  });

  it("notices changes made by another tab within one poll interval, once", async () => {
    vi.useFakeTimers();
    const store = new CookieTokenStore("p1");
    store.write({ accessToken: "at", refreshToken: "rt" });
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    await vi.advanceTimersByTimeAsync(COOKIE_POLL_MILLIS * 3);
    expect(listener).not.toHaveBeenCalled();
    new CookieTokenStore("p1").write({ accessToken: null, refreshToken: null });
    await vi.advanceTimersByTimeAsync(COOKIE_POLL_MILLIS);
    expect(listener.mock.calls).toEqual([[{ accessToken: null, refreshToken: null }]]);
    await vi.advanceTimersByTimeAsync(COOKIE_POLL_MILLIS * 3);
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    new CookieTokenStore("p1").write({ accessToken: "a2", refreshToken: "r2" });
    await vi.advanceTimersByTimeAsync(COOKIE_POLL_MILLIS * 3);
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
