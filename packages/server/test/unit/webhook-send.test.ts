/**
 * One webhook POST (capabilities/webhooks/domain/send.ts) against receivers on loopback: connections kept between
 * deliveries, a kept connection closed by the receiver as it is reused, and the outcomes of sends that get no answer.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { sendWebhook } from "../../src/capabilities/webhooks/domain/send.ts";

const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A receiver that answers 204 to every request, except those `drop` picks, whose connection it cuts unanswered. */
async function receiver(drop: (requestOnConnection: number) => boolean = () => false) {
  const connections: Socket[] = [];
  const perConnection = new Map<Socket, number>();
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    const count = (perConnection.get(req.socket) ?? 0) + 1;
    perConnection.set(req.socket, count);
    if (drop(count)) return void req.socket.destroy();
    req.resume().on("end", () => res.writeHead(204).end());
  });
  server.on("connection", (socket: Socket) => connections.push(socket));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    connections: () => connections.length,
    requests: () => requests,
  };
}

const send = (url: string, allowPrivate = true) => sendWebhook(url, { "webhook-id": "msg_1" }, '{"type":"user.created"}', { allowPrivate });

describe("connections", () => {
  test("deliveries to one endpoint share a kept connection", async () => {
    const endpoint = await receiver();
    for (let i = 0; i < 3; i++) expect((await send(endpoint.url)).statusCode).toBe(204);
    expect(endpoint.requests()).toBe(3);
    expect(endpoint.connections()).toBe(1);
  });

  test("a kept connection cut as it is reused: the send is made once more, on a new connection", async () => {
    // The second request on any connection is cut unanswered, as when a receiver closes an idle connection just
    // as it is reused.
    const endpoint = await receiver((n) => n === 2);
    expect((await send(endpoint.url)).statusCode).toBe(204);
    expect((await send(endpoint.url)).statusCode).toBe(204);
    expect(endpoint.connections()).toBe(2);
  });

  test("a new connection cut unanswered is a failed attempt, not made again", async () => {
    const endpoint = await receiver(() => true);
    const outcome = await send(endpoint.url);
    expect(outcome).toMatchObject({ statusCode: 0, response: "The endpoint closed the connection before answering." });
    expect(endpoint.requests()).toBe(1);
  });
});

describe("sends that get no answer", () => {
  test("a refused connection", async () => {
    const endpoint = await receiver();
    const closed = servers.pop()!;
    await new Promise((resolve) => closed.close(resolve));
    expect(await send(endpoint.url)).toMatchObject({ statusCode: 0, response: "The endpoint refused the connection." });
  });

  test("a private address, unless the operator allows them", async () => {
    const endpoint = await receiver();
    const outcome = await send(endpoint.url, false);
    expect(outcome.statusCode).toBe(0);
    expect(outcome.response).toMatch(/private or local network/);
    expect(endpoint.requests()).toBe(0);
  });

  test("a URL that is not one", async () => {
    expect(await send("not a url")).toMatchObject({ statusCode: 0, response: "The endpoint URL is not valid." });
  });
});
