/** The write-behind of session last-used times survives a failed write. */
import { expect, it } from "vitest";
import { SessionActivity } from "../src/domain/sessions/activity.ts";

it("a failed write rejects that flush only; the batch is retried by the next one", async () => {
  let calls = 0;
  let failNext = true;
  const written: string[] = [];
  const db = {
    execute: async (query: unknown) => {
      calls += 1;
      if (failNext) {
        failNext = false;
        throw new Error("connection dropped");
      }
      written.push(JSON.stringify(query));
      return [] as never;
    },
  };
  const activity = new SessionActivity(db as never);
  const id = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c";
  activity.touch(id, "127.0.0.1");
  await expect(activity.flush()).rejects.toThrow("connection dropped");
  await activity.flush();
  expect(calls).toBe(2);
  expect(written).toHaveLength(1);
  expect(written[0]).toContain(id);
  await activity.close();
  expect(calls).toBe(2); // nothing left pending
});
