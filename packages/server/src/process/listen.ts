/**
 * The port is taken first, before the database is opened or migrated, so a
 * port in use stops the start with nothing changed. Until the instance is
 * ready every request gets 503 (a load balancer or a script waiting for the
 * server keeps waiting); then requests go to the app. Liveness alone answers
 * 200 meanwhile: the process is up, and an orchestrator that restarted it for
 * a long migration would never let the migration finish.
 */
import { getRequestListener } from "@hono/node-server";
import { createServer, type Server } from "node:http";
import { HEALTH_LIVE_PATH, liveResponse } from "../http/health.ts";
import { jsonResponse } from "../http/response.ts";
import { readingSmallBodies } from "../http/small-bodies.ts";
import { StartupError } from "./startup-error.ts";

type Fetch = Parameters<typeof getRequestListener>[0];

/** The HTTP server the app is served by, here and in the tests that listen on a port. */
export function createHttpServer(fetch: Fetch): Server {
  return createServer(readingSmallBodies(getRequestListener(fetch)));
}

export interface EarlyServer {
  server: Server;
  /** From now on, requests go to `fetch`. */
  serve(fetch: Fetch): void;
  /** Stops accepting connections; requests under way may finish while the process stops. */
  close(): void;
}

const starting: Fetch = (request) =>
  new URL(request.url).pathname === HEALTH_LIVE_PATH
    ? liveResponse()
    : jsonResponse(503, { error: "Latchkey is starting; try again in a moment." }, { "retry-after": "1" });

export async function listenEarly(port: number, hostname: string): Promise<EarlyServer> {
  let handler = starting;
  // Whatever the handler returns is passed on as it is: a response ready at once stays synchronous (lib/maybe-async.ts).
  const server = createHttpServer((request, env) => handler(request, env));
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => reject(listenFailure(error, port, hostname)));
    server.listen(port, hostname, () => resolve());
  });
  return {
    server,
    serve(fetch) {
      handler = fetch;
    },
    close: () => {
      server.close();
    },
  };
}

function listenFailure(error: NodeJS.ErrnoException, port: number, hostname: string): Error {
  switch (error.code) {
    case "EADDRINUSE":
      return new StartupError(`PORT ${port} is already in use on ${hostname}: stop what listens there, or set PORT to a free port.`, {
        cause: error,
      });
    case "EACCES":
      return new StartupError(`PORT ${port} needs privileges this process does not have: set PORT to a port above 1023.`, { cause: error });
    case "EADDRNOTAVAIL":
    case "ENOTFOUND":
      return new StartupError(
        `HOST ${hostname} is not an address of this machine: set HOST to one of its addresses, or unset it for 0.0.0.0.`,
        {
          cause: error,
        },
      );
    default:
      return error;
  }
}
