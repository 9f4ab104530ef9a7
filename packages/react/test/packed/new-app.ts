/**
 * What the packed-SDK test drives: `npm start` as a newcomer runs it (a real process), and a new Vite + React app
 * outside this repository, made of the files `npm create vite -- --template react-ts` starts with and the ones the
 * setup page shows.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { repoRoot } from "../browser/demo-app.ts";

/** The environment of the processes started here: ours, less what vitest sets for itself (React and Vite read NODE_ENV). */
export function childEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.NODE_ENV;
  for (const name of Object.keys(env)) if (name.startsWith("VITEST")) delete env[name];
  return env;
}

/** Runs a command to its end and returns its output; throws with the output when it fails. */
export function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: childEnv(), stdio: ["ignore", "pipe", "pipe"] });
    const output = collectOutput(child);
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(output()) : reject(new Error(`\`${command} ${args.join(" ")}\` failed (exit code ${code}):\n${output()}`)),
    );
  });
}

function collectOutput(child: ChildProcess): () => string {
  const chunks: Buffer[] = [];
  child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk));
  child.stderr?.on("data", (chunk: Buffer) => chunks.push(chunk));
  return () => Buffer.concat(chunks).toString();
}

export interface Started {
  url: string;
  /** Everything the process printed so far (for a failing test's message). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `command` in a process group of its own (`npm start` runs the server as its child), waits until `readyPath`
 * answers 200 under `url`, and stops the whole group on `stop()`.
 */
export async function startProcess(
  command: string,
  args: string[],
  options: { cwd: string; env: Record<string, string>; url: string; readyPath: string },
): Promise<Started> {
  const child = spawn(command, args, { cwd: options.cwd, env: childEnv(options.env), stdio: ["ignore", "pipe", "pipe"], detached: true });
  const output = collectOutput(child);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let running = true;
  void exited.then(() => (running = false));
  // npm may exit before the server it started has closed its database: the stop waits for the whole group to be
  // gone, so a caller may remove the data directory afterwards.
  const stop = async () => {
    if (!groupAlive(child.pid!)) return;
    process.kill(-child.pid!, "SIGTERM");
    if (!(await groupGone(child.pid!, 10_000))) {
      process.kill(-child.pid!, "SIGKILL");
      await groupGone(child.pid!, 10_000);
    }
    await exited;
  };
  try {
    await waitUntilAnswered(`${options.url}${options.readyPath}`, () => running);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${output()}`, { cause: error });
  }
  return { url: options.url, output, stop };
}

/**
 * Whether any process of the group `pgid` still runs, read from /proc: a signal 0 would also count zombies, which
 * stay in the group until a container's init (often not a reaper) collects them.
 */
function groupAlive(pgid: number): boolean {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue; // Gone between the listing and the read.
    }
    // pid (comm) state ppid pgrp …: comm may hold spaces and parentheses, so fields are read after its last ")".
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z" && state !== "X") return true;
  }
  return false;
}

/** Polls until the group `pgid` has no process left; false when some remain after `ms`. */
async function groupGone(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (groupAlive(pgid)) {
    if (Date.now() > deadline) return false;
    await new Promise((done) => setTimeout(done, 50));
  }
  return true;
}

/** Polls until `url` answers 200; throws when the process is gone or after three minutes (a first `npm start` builds). */
async function waitUntilAnswered(url: string, running: () => boolean): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (!running()) throw new Error(`The process meant to serve ${url} exited.`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((done) => setTimeout(done, 250));
  }
  throw new Error(`Nothing answered at ${url} within three minutes.`);
}

/** The versions this repository installed, so the new app's install finds them in npm's cache. */
function installedVersion(name: string): string {
  return (JSON.parse(readFileSync(join(repoRoot, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
}

/** A new Vite + React (TypeScript) app in `dir`, as `npm create vite@latest my-app -- --template react-ts` makes it, not installed yet. */
export function writeViteApp(dir: string): void {
  const pinned = (names: string[]) => Object.fromEntries(names.map((name) => [name, installedVersion(name)]));
  const files: Record<string, string> = {
    "package.json": JSON.stringify(
      {
        name: "my-app",
        private: true,
        version: "0.0.0",
        type: "module",
        scripts: { dev: "vite", build: "tsc -p . && vite build", preview: "vite preview" },
        dependencies: pinned(["react", "react-dom"]),
        devDependencies: pinned(["@types/react", "@types/react-dom", "@vitejs/plugin-react", "typescript", "vite"]),
      },
      null,
      2,
    ),
    "index.html": `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <link rel="icon" type="image/svg+xml" href="/vite.svg" />
    <meta name="viewport" content="width=device-width, initial-scale=1.0" />
    <title>my-app</title>
  </head>
  <body>
    <div id="root"></div>
    <script type="module" src="/src/main.tsx"></script>
  </body>
</html>
`,
    "public/vite.svg": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="#646cff"/></svg>\n',
    "vite.config.ts": `import { defineConfig } from "vite";
import react from "@vitejs/plugin-react";

export default defineConfig({
  plugins: [react()],
});
`,
    "tsconfig.json": JSON.stringify(
      {
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2022", "DOM", "DOM.Iterable"],
          module: "ESNext",
          types: ["vite/client"],
          skipLibCheck: true,
          moduleResolution: "bundler",
          allowImportingTsExtensions: true,
          verbatimModuleSyntax: true,
          moduleDetection: "force",
          noEmit: true,
          jsx: "react-jsx",
          strict: true,
        },
        include: ["src"],
      },
      null,
      2,
    ),
  };
  for (const [name, text] of Object.entries(files)) writeFile(dir, name, text);
}

export function writeFile(dir: string, name: string, text: string): void {
  const path = join(dir, name);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}
