/**
 * Bodies over a socket (http/small-bodies.ts): a small one is read before routing and parsed without waiting, a
 * larger or chunked one streams as before; both give the same answers, and a client that leaves mid-body costs
 * nothing but its own request.
 */
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SMALL_BODY_BYTES } from "../src/http/small-bodies.ts";
import { serverWithProject, uniqueEmail, PASSWORD, type Project } from "./fixtures.ts";
import { authHeaders, type TestServer } from "./harness.ts";

let server: TestServer;
let project: Project;
let base: string;
let port: number;
beforeAll(async () => {
  ({ server, project } = await serverWithProject());
  base = await server.listen();
  port = Number(new URL(base).port);
});
afterAll(() => server?.close());

const SIGN_UP = "/api/v1/auth/password/sign-up";

function headerLines(extra: Record<string, string>): string {
  return Object.entries({ host: "127.0.0.1", connection: "close", ...authHeaders(project.client), ...extra })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join("");
}

/** Sends `parts` one after another, each once the previous one has left this process; resolves with the answer. */
function rawRequest(head: string, parts: Buffer[]): Promise<{ status: number; body: { code?: string; error?: string } }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1");
    const received: Buffer[] = [];
    socket.on("data", (chunk) => received.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      const text = Buffer.concat(received).toString("utf8");
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1]);
      resolve({ status, body: JSON.parse(text.slice(text.indexOf("\r\n\r\n") + 4)) });
    });
    const send = (index: number) => {
      if (index < parts.length) socket.write(parts[index]!, () => send(index + 1));
    };
    socket.write(head, () => send(0));
  });
}

function post(body: Buffer, contentType = "application/json", split = [body.length]) {
  const parts: Buffer[] = [];
  let at = 0;
  for (const size of split) parts.push(body.subarray(at, (at += size)));
  return rawRequest(
    `POST ${SIGN_UP} HTTP/1.1\r\n${headerLines({ "content-type": contentType, "content-length": String(body.length) })}\r\n`,
    parts,
  );
}

describe("a small body, read before routing", () => {
  it("is parsed whether it arrives in one write or byte by byte", async () => {
    const body = Buffer.from(JSON.stringify({ email: uniqueEmail(), password: PASSWORD }));
    expect((await post(body)).status).toBe(200);
    const again = Buffer.from(JSON.stringify({ email: uniqueEmail(), password: PASSWORD }));
    expect(
      (
        await post(
          again,
          "application/json",
          Array.from(again, () => 1),
        )
      ).status,
    ).toBe(200);
  });

  it("gives BODY_PARSING_ERROR for malformed JSON and for bytes that are not UTF-8, and takes form data", async () => {
    const json = await post(Buffer.from('{"email": '));
    expect(json).toEqual({
      status: 400,
      body: expect.objectContaining({ code: "BODY_PARSING_ERROR", error: "The request body is not valid JSON." }),
    });
    const utf8 = await post(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]));
    expect(utf8.body).toMatchObject({ code: "BODY_PARSING_ERROR", error: "The request body is not valid UTF-8." });
    const form = await post(
      Buffer.from(new URLSearchParams({ email: uniqueEmail(), password: PASSWORD }).toString()),
      "application/x-www-form-urlencoded",
    );
    expect(form.status).toBe(200);
  });

  it("costs nothing but its own request when the client leaves mid-body", async () => {
    const errorsBefore = server.logs.filter((line) => Number(line.level) >= 50).length;
    await new Promise<void>((resolve, reject) => {
      const socket = connect(port, "127.0.0.1");
      socket.on("error", reject);
      socket.on("close", () => resolve());
      const head = `POST ${SIGN_UP} HTTP/1.1\r\n${headerLines({ "content-type": "application/json", "content-length": "100" })}\r\n`;
      socket.write(`${head}{"email":`, () => socket.destroy());
    });
    const body = Buffer.from(JSON.stringify({ email: uniqueEmail(), password: PASSWORD }));
    expect((await post(body)).status).toBe(200);
    expect(server.logs.filter((line) => Number(line.level) >= 50)).toHaveLength(errorsBefore);
  });
});

describe("a body over the pre-read size, or chunked, streams as before", () => {
  it("parses it and reports what it holds", async () => {
    const padding = "x".repeat(SMALL_BODY_BYTES + 1);
    const large = Buffer.from(JSON.stringify({ email: uniqueEmail(), password: PASSWORD, padding }));
    const answer = await post(large, "application/json", [1000, large.length - 1000]);
    expect(answer.status).toBe(400);
    expect(answer.body.code).toBe("SCHEMA_ERROR");
    expect(answer.body.error).toContain("padding");
    const malformed = await post(Buffer.from(`{"padding": "${padding}`));
    expect(malformed.body).toMatchObject({ code: "BODY_PARSING_ERROR", error: "The request body is not valid JSON." });
  });

  it("reads a chunked body", async () => {
    const body = JSON.stringify({ email: uniqueEmail(), password: PASSWORD });
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    const head = `POST ${SIGN_UP} HTTP/1.1\r\n${headerLines({ "content-type": "application/json", "transfer-encoding": "chunked" })}\r\n`;
    expect((await rawRequest(head, [Buffer.from(chunked)])).status).toBe(200);
  });
});
