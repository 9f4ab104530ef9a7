/**
 * The ceiling: a bare Hono app on @hono/node-server, the same framework and
 * adapter as Latchkey, answering GET / with "hello". Run as its own process.
 */
import { serve } from "@hono/node-server";
import { Hono } from "hono";

const app = new Hono();
app.get("/", (c) => c.text("hello"));

const port = Number(process.env.PORT ?? 8199);
const server = serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }, () => {
  console.log(`hello server on ${port}`);
});
const stop = () => server.close(() => process.exit(0));
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
