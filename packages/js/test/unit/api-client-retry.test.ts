import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { ConnectionError, HttpError, OFFLINE_MESSAGE } from "../../src/errors.ts";
import { BASE, jsonResponse, knownErrorResponse, settle, setup } from "./helpers.ts";

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe("ApiClient network retry", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(Math, "random").mockReturnValue(0.5);
  });

  it("retries an idempotent request 5 times with back-off 1s, 2s, 4s, 8s, then throws ConnectionError", async () => {
    const { client, fetchMock } = setup(Array.from({ length: 5 }, () => new TypeError("fetch failed")));
    const result = settle(client.send("/users/me", { accessType: "client" }));
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    for (const [delay, calls] of [
      [1000, 2],
      [2000, 3],
      [4000, 4],
      [8000, 5],
    ] as const) {
      await vi.advanceTimersByTimeAsync(delay - 1);
      expect(fetchMock).toHaveBeenCalledTimes(calls - 1);
      await vi.advanceTimersByTimeAsync(1);
      expect(fetchMock).toHaveBeenCalledTimes(calls);
    }
    const { error } = await result;
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain(`could not connect to its server at ${BASE} (5 attempts)`);
    expect((error as Error).message).toContain("TypeError: fetch failed");
    expect((error as Error).cause).toBeInstanceOf(TypeError);
  });

  it("succeeds when a retried request gets through", async () => {
    const { client, fetchMock } = setup([new TypeError("x"), new TypeError("x"), jsonResponse({ ok: 1 })]);
    const result = settle(client.send("/x", { method: "DELETE", accessType: "server" }));
    await vi.advanceTimersByTimeAsync(3000);
    expect(await result).toEqual({ value: { ok: 1 } });
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it.each(["POST", "PATCH"])("does not retry %s", async (method) => {
    const { client, fetchMock } = setup([new TypeError("down"), jsonResponse({})]);
    const { error } = await settle(client.send("/x", { method, accessType: "client", body: {} }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toContain(`could not connect to its server at ${BASE} (1 attempt)`);
  });

  it("fails fast with the offline message when navigator.onLine is false", async () => {
    vi.stubGlobal("navigator", { onLine: false });
    const { client, fetchMock } = setup([jsonResponse({})]);
    const { error } = await settle(client.send("/x", { accessType: "client" }));
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toBe("You are offline. Please check your internet connection and try again.");
    expect(OFFLINE_MESSAGE).toBe((error as Error).message);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("reports offline instead of retrying when the network drops", async () => {
    const nav = { onLine: true };
    vi.stubGlobal("navigator", nav);
    const { client, fetchMock } = setup([new TypeError("x")]);
    fetchMock.mockImplementationOnce(async () => {
      nav.onLine = false;
      throw new TypeError("x");
    });
    const { error } = await settle(client.send("/x", { accessType: "client" }));
    expect((error as Error).message).toBe(OFFLINE_MESSAGE);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

describe("ApiClient rate limits and loops", () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(Math, "random").mockReturnValue(0);
  });

  it("waits Retry-After seconds on 429, then retries (even a POST)", async () => {
    const { client, fetchMock } = setup([
      new Response("slow down", { status: 429, headers: { "retry-after": "3" } }),
      jsonResponse({ ok: true }),
    ]);
    const result = settle(client.send("/x", { method: "POST", accessType: "client", body: {} }));
    await vi.advanceTimersByTimeAsync(2999);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(await result).toEqual({ value: { ok: true } });
  });

  it("gives up with HttpError 429 after 5 attempts", async () => {
    const { client, fetchMock } = setup(
      Array.from({ length: 5 }, () => new Response("no", { status: 429, headers: { "retry-after": "1" } })),
    );
    const result = settle(client.send("/x", { accessType: "client" }));
    await vi.advanceTimersByTimeAsync(10_000);
    const { error } = await result;
    expect(fetchMock).toHaveBeenCalledTimes(5);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(429);
  });

  it("answers a 429 at once when Retry-After is longer than a minute (a lockout, not a hiccup)", async () => {
    const { client, fetchMock } = setup([
      new Response("Too many wrong codes. Wait a few minutes, then try again.", { status: 429, headers: { "retry-after": "61" } }),
    ]);
    const { error } = await settle(client.send("/x", { method: "POST", accessType: "client", body: {} }));
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(429);
    expect((error as HttpError).message).toContain("Too many wrong codes");
  });

  it("retries 508 INFINITE_LOOP_DETECTED after the back-off", async () => {
    const loop = knownErrorResponse("INFINITE_LOOP_DETECTED", 508);
    const { client, fetchMock } = setup([loop, jsonResponse([1, 2])]);
    const result = settle(client.send("/x", { accessType: "client" }));
    await vi.advanceTimersByTimeAsync(499);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(await result).toEqual({ value: [1, 2] });
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it("does not retry a 508 without the loop code", async () => {
    const { client, fetchMock } = setup([new Response("loop?", { status: 508 })]);
    const { error } = await settle(client.send("/x", { accessType: "client" }));
    expect((error as HttpError).status).toBe(508);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});
