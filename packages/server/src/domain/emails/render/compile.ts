/**
 * Compiles a stored TSX module (theme, template or draft) to a CommonJS
 * function body for the sandbox. Imports other than the allowed ones fail
 * here, before anything runs; the allowed ones stay `require` calls that the
 * sandbox answers with its own copies.
 *
 * esbuild compiles in a child process of its own (its service, ~70 MB), which
 * it starts on the first call and would keep for the life of the server. Mail
 * is rendered now and then, so the service is stopped once no compile has run
 * for bundlerIdle.millis, and started again by the next one. esbuild's module
 * itself is loaded by the first compile, not when the server starts.
 */
import type { Message, Plugin } from "esbuild";

/**
 * How long esbuild's service outlives the last compile: long enough for an admin editing a template, or a burst
 * of mail. A property, so a test can shorten it.
 */
export const bundlerIdle = { millis: 30_000 };

let compiling = 0;
let idleTimer: NodeJS.Timeout | null = null;

function compileStarted() {
  compiling += 1;
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
}

function compileEnded() {
  compiling -= 1;
  if (compiling > 0) return;
  idleTimer = setTimeout(() => {
    idleTimer = null;
    if (compiling === 0) void import("esbuild").then((esbuild) => esbuild.stop());
  }, bundlerIdle.millis);
  // The timer alone must not keep a process alive that has nothing else to do (a one-off command, a test).
  idleTimer.unref();
}

/** What sandbox/entry.ts provides (the helpers module and arktype for templates written for the wire contract). */
export const ALLOWED_IMPORTS = ["react", "react/jsx-runtime", "@react-email/components", "@stackframe/emails", "arktype"];

/** A compile failure, worded for the admin who wrote the TSX. */
export class CompileError extends Error {}

/** Resolves only `allowed` imports (left as `require` calls for the sandbox to answer); any other fails the compile. */
function allowImports(allowed: readonly string[]): Plugin {
  return {
    name: "latchkey-allowed-imports",
    setup(b) {
      b.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "entry-point") return undefined;
        if (allowed.includes(args.path)) return { path: args.path, external: true };
        const only = allowed.length > 0 ? `only ${allowed.join(", ")}` : "nothing can be";
        return { errors: [{ text: `"${args.path}" cannot be imported (${only})` }] };
      });
    },
  };
}

function describe(message: Message): string {
  const at = message.location ? ` (line ${message.location.line}, column ${message.location.column + 1})` : "";
  return `${message.text}${at}`;
}

/** How a module is compiled: e-mail TSX by default; workflows are TypeScript that imports nothing. */
export interface CompileOptions {
  loader?: "tsx" | "ts";
  allowedImports?: readonly string[];
}

/** `what` names the module in messages ("template", "theme", "workflow"). */
export async function compileModule(source: string, what: string, options: CompileOptions = {}): Promise<string> {
  const { loader = "tsx", allowedImports = ALLOWED_IMPORTS } = options;
  compileStarted();
  try {
    const { build } = await import("esbuild");
    const result = await build({
      stdin: { contents: source, loader, sourcefile: `${what}.${loader}` },
      bundle: true,
      write: false,
      format: "cjs",
      platform: "neutral",
      target: "es2022",
      jsx: "automatic",
      plugins: [allowImports(allowedImports)],
      logLevel: "silent",
    });
    return result.outputFiles[0]!.text;
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors;
    if (!errors?.length) throw error;
    throw new CompileError(`The ${what} does not compile: ${describe(errors[0]!)}`);
  } finally {
    compileEnded();
  }
}
