/**
 * esbuild compiles e-mail TSX in a child process of its own (its service),
 * started by the first compile; compile.ts stops it once compiles have been
 * idle for a while, and the next compile starts it again.
 */
import { readFileSync, readdirSync } from "node:fs";
import { afterAll, describe, expect, it, vi } from "vitest";
import { bundlerIdle, compileModule } from "../../src/domain/emails/render/compile.ts";

const TEMPLATE = "export function EmailTemplate() { return <p>idle</p>; }";
const before = bundlerIdle.millis;
afterAll(() => {
  bundlerIdle.millis = before;
});

/** This process's esbuild services (Linux /proc). */
function esbuildServices(): number[] {
  const children = readdirSync(`/proc/${process.pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${process.pid}/task/${task}/children`, "utf8").split(" ").filter(Boolean).map(Number),
  );
  return children.filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("--service=");
    } catch {
      return false; // exited meanwhile
    }
  });
}

describe("esbuild's service for e-mail TSX", () => {
  it("starts with a compile, stops once compiles are idle, and starts again for the next", async () => {
    bundlerIdle.millis = 300;
    expect(esbuildServices()).toEqual([]);
    await compileModule(TEMPLATE, "template");
    expect(esbuildServices()).toHaveLength(1);
    await vi.waitFor(() => expect(esbuildServices()).toEqual([]), { timeout: 10_000, interval: 50 });

    expect(await compileModule(TEMPLATE, "template")).toContain("idle");
    expect(esbuildServices()).toHaveLength(1);
    await vi.waitFor(() => expect(esbuildServices()).toEqual([]), { timeout: 10_000, interval: 50 });
  });

  it("is not stopped while compiles keep coming, and is once they stop", async () => {
    bundlerIdle.millis = 5_000;
    // The idle timer runs on faked timers, moved by hand: 4 s between compiles, 12 s in all, past the 5 s idle period.
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
    try {
      await compileModule(TEMPLATE, "template");
      const [service] = esbuildServices();
      for (let i = 0; i < 3; i++) {
        vi.advanceTimersByTime(4_000);
        await compileModule(TEMPLATE, "template");
        expect(esbuildServices()).toEqual([service]);
      }
      vi.advanceTimersByTime(5_000);
    } finally {
      vi.useRealTimers();
    }
    await vi.waitFor(() => expect(esbuildServices()).toEqual([]), { timeout: 10_000, interval: 50 });
  });
});
