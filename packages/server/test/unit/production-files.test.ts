/**
 * The production files at the repository's root (Dockerfile, compose.yaml, .dockerignore) agree
 * with each other, with the workspaces and with the variables the server documents, so none of
 * them rots silently: images cannot be built here (no registry for base images), so these checks
 * and the linter (scripts/lint-dockerfile.mjs, also run by `npm test`) are what holds them.
 * docs/production.md explains them to operators.
 */
import { execFile, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DockerfileParser, type Instruction } from "dockerfile-ast";
import { load } from "js-yaml";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const read = (path: string) => readFileSync(join(ROOT, path), "utf8");

const dockerfile = DockerfileParser.parse(read("Dockerfile"));

/** The Dockerfile's stages by name, each with the line of its FROM and its instructions after it. */
const stages = new Map<string, { from: string; line: number; instructions: Instruction[] }>();
for (const instruction of dockerfile.getInstructions()) {
  if (instruction.getKeyword() === "FROM") {
    const [from, , name] = instruction.getArguments().map((a) => a.getValue());
    stages.set(name!, { from: from!, line: instruction.getRange().start.line, instructions: [] });
  } else [...stages.values()].at(-1)?.instructions.push(instruction);
}
const runtime = [...stages.values()].at(-1)!;
const argsOf = (instruction: Instruction) => instruction.getArgumentsContent() ?? "";
/** The runtime stage's ENV, by name. */
const runtimeEnv = new Map(
  dockerfile
    .getENVs()
    .filter((env) => env.getRange().start.line > runtime.line)
    .flatMap((env) => env.getProperties())
    .map((p) => [p.getName(), p.getValue() ?? ""]),
);

interface ComposeService {
  image?: string;
  build?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] };
  volumes?: string[];
  ports?: string[];
  env_file?: { path: string; required: boolean }[];
}
const compose = load(read("compose.yaml")) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
const latchkey = compose.services.latchkey!;
const postgres = compose.services.postgres!;

/** The variables README's Configuration table and the production guide's table document. */
function documentedVariables(): Set<string> {
  const names = new Set<string>();
  for (const path of ["README.md", "docs/production.md"]) {
    for (const line of read(path).split("\n")) {
      if (!line.startsWith("| `")) continue;
      for (const [, name] of line.split("|")[1]!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)) names.add(name!);
    }
  }
  return names;
}

describe("Dockerfile", () => {
  it("passes the Dockerfile linter, which fails on any finding and on layout", () => {
    const clean = spawnSync(process.execPath, ["scripts/lint-dockerfile.mjs"], { cwd: ROOT, encoding: "utf8" });
    expect(clean.stderr).toBe("");
    expect(clean.status).toBe(0);

    const dir = mkdtempSync(join(tmpdir(), "latchkey-dockerfile-"));
    try {
      const bad = join(dir, "Dockerfile");
      writeFileSync(bad, "FROM node:20\nworkdir app\nRUN true \\\n      && true\n");
      const lint = spawnSync(process.execPath, ["scripts/lint-dockerfile.mjs", bad], { cwd: ROOT, encoding: "utf8" });
      expect(lint.status).toBe(1);
      expect(lint.stderr).toContain("not laid out as dockerfile-utils formats it");
      // Warnings to dockerfile-utils' own command line, errors here.
      expect(lint.stderr).toContain(`${bad}:2:1: Instructions should be written in uppercase letters`);
      expect(lint.stderr).toContain(`${bad}:2:9: WORKDIR paths should be absolute`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("builds on Node 20 in one stage and runs as a non-root user in another", () => {
    const image = dockerfile.getInitialARGs()[0]!.getProperty()!;
    expect(image.getName()).toBe("NODE_IMAGE");
    expect(image.getValue()).toMatch(/^node:20-/);
    expect(runtime.from).toBe("${NODE_IMAGE}");

    const build = stages.get("build")!;
    const runs = build.instructions.filter((i) => i.getKeyword() === "RUN").map(argsOf);
    expect(runs.some((r) => r.startsWith("npm ci"))).toBe(true);
    expect(runs.some((r) => r.includes("npm run build") && r.includes("ensureSdkPacked()"))).toBe(true);

    const users = runtime.instructions.filter((i) => i.getKeyword() === "USER").map(argsOf);
    expect(users.at(-1)).toBe("node");
    // The runtime stage installs nothing: no npm, no apt-get.
    const runtimeRuns = runtime.instructions.filter((i) => i.getKeyword() === "RUN").map(argsOf);
    expect(runtimeRuns.filter((r) => /\b(npm|apt-get|apk)\b/.test(r))).toEqual([]);
  });

  it("copies every workspace's manifest before npm ci, so the lockfile's workspaces are all there", () => {
    const workspaces = (JSON.parse(read("package.json")) as { workspaces: string[] }).workspaces;
    const manifests = spawnSync("git", ["ls-files", ...workspaces.map((w) => `${w}/package.json`)], { cwd: ROOT, encoding: "utf8" })
      .stdout.split("\n")
      .filter(Boolean);
    expect(manifests.length).toBeGreaterThan(4);
    const copied = stages
      .get("manifests")!
      .instructions.filter((i) => i.getKeyword() === "COPY")
      .flatMap((i) =>
        i
          .getArguments()
          .slice(0, -1)
          .map((a) => a.getValue()),
      );
    expect(new Set(copied)).toEqual(new Set(["package.json", "package-lock.json", ...manifests]));
  });

  it("runs the built server with the built dashboard and the packed SDK it copies in", () => {
    const cmd = dockerfile.getCMDs().at(-1)!;
    expect(JSON.parse(argsOf(cmd))).toEqual(["node", "packages/server/dist/main.js", "start"]);

    const workdir = runtime.instructions
      .filter((i) => i.getKeyword() === "WORKDIR")
      .map(argsOf)
      .at(-1)!;
    const copiedTo = runtime.instructions
      .filter((i) => i.getKeyword() === "COPY")
      .map((i) => join(workdir, i.getArguments().at(-1)!.getValue()).replace(/\/$/, ""));
    expect(copiedTo).toContain(join(workdir, "packages/server/dist"));
    expect(runtimeEnv.get("NODE_ENV")).toBe("production");
    expect(copiedTo).toContain(runtimeEnv.get("LATCHKEY_DASHBOARD_DIR"));
    expect(runtimeEnv.get("LATCHKEY_DASHBOARD_DIR")).toBe(join(workdir, "apps/dashboard/dist"));
    expect(copiedTo).toContain(runtimeEnv.get("LATCHKEY_SDK_DIR"));
  });

  it("exposes the port it serves on and sets only variables the documentation explains", () => {
    const exposed = runtime.instructions.filter((i) => i.getKeyword() === "EXPOSE").map(argsOf);
    expect(exposed).toEqual([runtimeEnv.get("PORT")]);
    const documented = documentedVariables();
    expect([...runtimeEnv.keys()].filter((name) => !documented.has(name))).toEqual([]);
  });

  it("leaves dependencies, builds, local data and secrets out of the build context", () => {
    const ignored = read(".dockerignore")
      .split("\n")
      .filter((line) => line && !line.startsWith("#"));
    expect(ignored).toEqual(expect.arrayContaining(["**/node_modules", "**/dist", "**/.latchkey", ".env", ".git"]));
  });
});

describe("the Dockerfile's HEALTHCHECK", () => {
  const healthcheck = dockerfile.getHEALTHCHECKs()[0]!;
  const flags = Object.fromEntries(healthcheck.getFlags().map((f) => [f.getName(), f.getValue()]));
  const command = JSON.parse(argsOf(healthcheck).slice(argsOf(healthcheck).indexOf("["))) as string[];

  /** Where the stand-in server got asked, and what it answers. */
  let asked: string[] = [];
  let status = 200;
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((req, res) => {
      asked.push(req.url ?? "");
      res.writeHead(status, { "content-type": "application/json" }).end("{}");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** Runs the HEALTHCHECK's command as Docker would in the image (PORT from the environment); its exit code. */
  function probe(env: NodeJS.ProcessEnv): Promise<number> {
    const [program, ...args] = command;
    expect(program).toBe("node");
    return new Promise((resolve) => {
      execFile(process.execPath, args, { env: { PATH: process.env.PATH, ...env }, timeout: 10_000 }, (error) =>
        resolve(error ? (typeof error.code === "number" ? error.code : -1) : 0),
      );
    });
  }

  it("asks /health/ready on PORT, passes on 200 and fails on 503", async () => {
    asked = [];
    status = 200;
    expect(await probe({ PORT: String(port) })).toBe(0);
    status = 503;
    expect(await probe({ PORT: String(port) })).toBe(1);
    expect(asked).toEqual(["/health/ready", "/health/ready"]);
  });

  it("fails when nothing listens", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const unused = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await probe({ PORT: String(unused) })).toBe(1);
  });

  it("gives up before Docker's timeout and waits out the first start's migrations", () => {
    const [abortAfter] = /AbortSignal\.timeout\((\d+)\)/.exec(command.join(" "))!.slice(1).map(Number);
    expect(abortAfter! / 1000).toBeLessThan(Number.parseInt(flags.timeout!, 10));
    expect(Number.parseInt(flags["start-period"]!, 10)).toBeGreaterThanOrEqual(30);
  });
});

describe("compose.yaml", () => {
  it("starts Latchkey from this Dockerfile once PostgreSQL is healthy, with its data on a volume", () => {
    expect(latchkey.build).toBe(".");
    expect(latchkey.depends_on).toEqual({ postgres: { condition: "service_healthy" } });
    expect(postgres.healthcheck!.test.join(" ")).toContain("pg_isready");
    const [volume, mountedAt] = postgres.volumes![0]!.split(":");
    expect(Object.keys(compose.volumes)).toContain(volume);
    expect(mountedAt).toBe("/var/lib/postgresql/data");
    // The image's HEALTHCHECK on /health/ready is the one that counts.
    expect(latchkey.healthcheck).toBeUndefined();
  });

  it("publishes the port the image serves on, to the host's loopback, for a proxy on the host", () => {
    expect(latchkey.ports).toEqual([`127.0.0.1:${runtimeEnv.get("PORT")}:${runtimeEnv.get("PORT")}`]);
    // That proxy is the one hop believed, unless the operator says otherwise.
    expect(latchkey.environment!.LATCHKEY_TRUSTED_PROXIES).toBe("${LATCHKEY_TRUSTED_PROXIES-1}");
  });

  it("points DATABASE_URL at its PostgreSQL service with that service's user, password and database", () => {
    const url = new URL(latchkey.environment!.DATABASE_URL!.replace("${POSTGRES_PASSWORD}", "PASSWORD"));
    const env = postgres.environment!;
    expect(url.protocol).toBe("postgres:");
    expect(url.hostname).toBe("postgres");
    expect(url.port).toBe("5432");
    expect(url.username).toBe(env.POSTGRES_USER);
    expect(url.pathname).toBe(`/${env.POSTGRES_DB}`);
    expect(url.password).toBe("PASSWORD");
    expect(env.POSTGRES_PASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?.+\}$/);
  });

  it("refuses to start without the secret and the public address production needs", () => {
    for (const name of ["STACK_SERVER_SECRET", "LATCHKEY_API_URL"]) {
      expect(latchkey.environment![name]).toMatch(new RegExp(`^\\$\\{${name}:\\?Set ${name}\\b.+\\}$`));
    }
    expect(read("compose.yaml")).toContain("at least 32 characters");
  });

  it("passes only variables the documentation explains, the optional ones from latchkey.env", () => {
    const documented = documentedVariables();
    expect(Object.keys(latchkey.environment!).filter((name) => !documented.has(name))).toEqual([]);
    expect(latchkey.env_file).toEqual([{ path: "latchkey.env", required: false }]);
    for (const secret of [".env", "latchkey.env"]) {
      expect(read(".gitignore").split("\n")).toContain(secret);
    }
  });
});
