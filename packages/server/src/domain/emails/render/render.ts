/**
 * Renders stored e-mail TSX (written by project admins, so untrusted) to
 * HTML, plain text and a subject. The TSX is compiled with esbuild
 * (compile.ts) and run in a QuickJS sandbox (vm.ts) in a worker thread
 * (worker.ts, client.ts), with memory and CPU limits (limits.ts), from a
 * snapshot of a freshly loaded runtime, so no render sees another's state.
 * Every failure of the TSX rejects with EMAIL_RENDERING_ERROR.
 *
 * Measured on the 2-core development machine, a built-in template in the light theme:
 * - cold (first render in the process): ~2.2 s, all of it in the worker, not
 *   on the server's event loop: starting the worker ~0.2 s, bundling the
 *   runtime ~0.2 s, loading it into QuickJS ~1.8 s (then saved as the snapshot);
 * - warm: ~13 ms median, ~17-28 ms p90 (compiling both modules ~3-6 ms,
 *   restoring the snapshot ~2 ms, rendering in QuickJS ~7-10 ms, the text ~2 ms, in the worker too).
 * arktype (in the runtime since templates written for the wire contract import it) adds to the cold load
 * and to the snapshot each render restores.
 * Loading the runtime into a fresh context for every render would cost the
 * ~1.8 s each time (mostly Prism's grammars for CodeBlock), and keeping it as
 * QuickJS bytecode would save only the parse (~0.2 s): the time goes to
 * running its top-level code. Restoring a snapshot of the memory skips both.
 */
import { KnownErrors } from "@latchkey/shared";
import { randomInt } from "node:crypto";
import { runInSandbox } from "./client.ts";
import { CompileError, compileModule } from "./compile.ts";
import type { RenderedEmail, RenderInput } from "./types.ts";
import { RENDER_CPU_MILLIS, RENDER_MEMORY_BYTES } from "./limits.ts";
import type { RenderOutcome } from "./worker.ts";

const fail = (message: string) => new KnownErrors.EmailRenderingError(message);

const MEMORY_MESSAGE = `it needs more than ${RENDER_MEMORY_BYTES / 1024 / 1024} MiB of memory to render`;

function resultOf(outcome: RenderOutcome): RenderedEmail {
  switch (outcome.kind) {
    case "rendered":
      return { html: outcome.html, text: outcome.text, subject: outcome.subject, notificationCategory: outcome.notificationCategory };
    case "error":
      throw fail(/out of memory/i.test(outcome.message) ? MEMORY_MESSAGE : outcome.message);
    case "memory":
      throw fail(MEMORY_MESSAGE);
    case "timeout":
      throw fail(`it took longer than ${RENDER_CPU_MILLIS / 1000} s to render (an endless loop?)`);
    case "stalled":
      throw fail("it never finished rendering: it waits for something that never happens");
    case "fault":
      throw fail(outcome.message);
  }
}

async function compile(source: string, what: string): Promise<string> {
  try {
    return await compileModule(source, what);
  } catch (error) {
    if (error instanceof CompileError) throw fail(error.message);
    throw error;
  }
}

export async function renderEmail(input: RenderInput): Promise<RenderedEmail> {
  const [templateCode, themeCode] = await Promise.all([
    compile(input.templateSource, "template"),
    input.themeSource === null ? null : compile(input.themeSource, "theme"),
  ]);
  const job = JSON.stringify({
    templateCode,
    themeCode,
    props: input.props,
    unsubscribeLink: input.unsubscribeLink,
    seed: randomInt(1, 2 ** 32),
  });
  return resultOf(await runInSandbox(job));
}

/**
 * Starts the sandbox and loads its runtime now (about 2 s, in the worker),
 * so the first real mail is not the one that waits. The server does not call
 * it at start: the sandbox and esbuild's service cost memory that a server
 * sending no mail need not hold (compile.ts). Tests that time a page with a
 * render use it.
 */
export function warmUpRenderer(logger: { warn(obj: object, msg: string): void }): void {
  const template = `export function EmailTemplate() { return <p>warm-up</p>; }`;
  renderEmail({
    templateSource: template,
    themeSource: null,
    props: { user: null, project: { displayName: "" }, variables: {} },
    unsubscribeLink: null,
  }).catch((error: unknown) =>
    logger.warn({ error: error instanceof Error ? error.message : String(error) }, "the e-mail renderer failed to warm up"),
  );
}
