import { spawn } from "node:child_process";
import { cannon, eachWithHeader, type CannonRequest } from "./cannon.ts";
import { freePort, makeDataDir, startServer, stopChild, waitReady } from "./processes.ts";
import { seed, userApiKeys } from "./setup.ts";

const port = await freePort();
const server = startServer("PGlite", port, makeDataDir(), null);
const base = `http://127.0.0.1:${port}`;
await waitReady(`${base}/api/v1`, server);
const fx = await seed(base);
const pid = server.process.pid!;
const me = eachWithHeader("GET", "/api/v1/users/me", "x-stack-access-token", fx.users.map((u) => u.accessToken));
const check: CannonRequest[] = (await userApiKeys(base, fx)).map((apiKey) => ({
  method: "POST", path: "/api/v1/user-api-keys/check", headers: { "content-type": "application/json" }, body: JSON.stringify({ api_key: apiKey }),
}));
const floor: CannonRequest = { method: "GET", path: "/api/v1/" };
const which = (process.env.EXP ?? "floor,me,check").split(",");
for (let round = 0; round < Number(process.env.ROUNDS ?? 1); round++)
for (const [name, headers, request] of [["floor", {}, floor], ["me", fx.client, me], ["check", fx.server, check]] as const) {
  if (!which.includes(name)) continue;
  await cannon("warm", base, { headers, request, pid }, 2);
  let st: ReturnType<typeof spawn> | null = null;
  if (process.env.STRACE) { st = spawn("strace", ["-c", "-f", "-p", String(pid), "-o", `/tmp/strace-${name}.txt`]); await new Promise((r) => setTimeout(r, 500)); }
  const row = await cannon(name, base, { headers, request, pid, ...(process.env.AMOUNT ? { amount: Number(process.env.AMOUNT) } : {}) }, Number(process.env.SECS ?? 5));
  if (st) { st.kill("SIGINT"); await new Promise((r) => st!.once("exit", r)); }
  console.log(name, Math.round(row.rps), "req/s", (row.serverCpu * 1000 / row.rps).toFixed(3), "ms/req");
}
await stopChild(server);
process.exit(0);
