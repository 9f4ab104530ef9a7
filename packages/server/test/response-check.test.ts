/**
 * In tests every answer is checked against its endpoint's response schema
 * (ServerConfig.checkResponses): a view that drifts from the contract fails
 * loudly instead of reaching a client. Off, answers pass untouched.
 */
import { defineEndpoint } from "@latchkey/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createApp } from "../src/app.ts";
import { defineRoute } from "../src/http/route.ts";
import { textResponse } from "../src/http/response.ts";
import { createTestServer, type TestServer } from "./harness.ts";

let server: TestServer;
beforeAll(async () => {
  server = await createTestServer();
});
afterAll(() => server?.close());

const answer = defineEndpoint({
  method: "POST",
  path: "/test/answer",
  summary: "Answers what it is told to",
  tags: ["Test"],
  access: "public",
  body: z.strictObject({ mode: z.enum(["right", "extra-field", "wrong-type", "json-text", "text", "wrong-text"]) }),
  response: z.strictObject({ id: z.string() }),
});
const text = defineEndpoint({
  method: "GET",
  path: "/test/text",
  summary: "A text answer",
  tags: ["Test"],
  access: "public",
  response: z.literal("hello"),
  responseType: "text",
});

const routes = [
  defineRoute(answer, ({ body }) => {
    switch (body.mode) {
      case "right":
        return { body: { id: "a" } };
      case "json-text":
        return { json: '{"id":7}' };
      default:
        // Deliberately off-contract: what the check exists to catch.
        return { body: (body.mode === "extra-field" ? { id: "a", secret: "x" } : { id: 1 }) as unknown as { id: string } };
    }
  }),
  defineRoute(text, () => textResponse(200, "goodbye") as never),
];

function call(checkResponses: boolean, path: string, body?: unknown) {
  const services = { ...server.instance.services, config: { ...server.config, checkResponses } };
  const app = createApp(services, routes);
  return app.request(
    `http://localhost/api/v1${path}`,
    body === undefined ? {} : { method: "POST", body: JSON.stringify(body), headers: { "content-type": "application/json" } },
  );
}

describe("response checking", () => {
  it("lets a matching answer through unchanged", async () => {
    const res = await call(true, "/test/answer", { mode: "right" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: "a" });
  });

  it.each(["extra-field", "wrong-type", "json-text"])(
    "fails an answer that does not match (%s) with a 500 naming the field",
    async (mode) => {
      const res = await call(true, "/test/answer", { mode });
      expect(res.status).toBe(500);
      const message = await res.text();
      expect(message).toContain("The answer of POST /test/answer does not match its response schema");
      expect(message).toMatch(/response(\.id)?/);
    },
  );

  it("checks text answers too", async () => {
    const res = await call(true, "/test/text");
    expect(res.status).toBe(500);
    expect(await res.text()).toContain("GET /test/text");
  });

  it("with the check off (production), sends whatever the handler answered", async () => {
    const res = await call(false, "/test/answer", { mode: "extra-field" });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: "a", secret: "x" });
  });
});
