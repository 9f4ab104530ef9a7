import type { AddressInfo } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { listenEarly, type EarlyServer } from "../../src/process/listen.ts";

describe("the port taken before the database opens", () => {
  let early: EarlyServer;
  afterAll(() => early?.close());

  it("answers 503 while starting, except liveness, then hands requests to the app", async () => {
    early = await listenEarly(0, "127.0.0.1");
    const base = `http://127.0.0.1:${(early.server.address() as AddressInfo).port}`;

    const live = await fetch(`${base}/health/live`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: "ok" });
    for (const path of ["/health/ready", "/api/v1", "/"]) {
      const res = await fetch(base + path);
      expect(res.status, path).toBe(503);
      expect(res.headers.get("retry-after")).toBe("1");
    }

    early.serve(() => new Response("served", { status: 200 }));
    expect(await (await fetch(`${base}/health/ready`)).text()).toBe("served");
  });
});
