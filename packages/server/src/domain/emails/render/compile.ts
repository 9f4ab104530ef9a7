/**
 * Compiles a stored TSX module (theme, template or draft) to a CommonJS
 * function body for the sandbox. Imports other than the allowed ones fail
 * here, before anything runs; the allowed ones stay `require` calls that the
 * sandbox answers with its own copies.
 */
import { build, type Message, type Plugin } from "esbuild";

export const ALLOWED_IMPORTS = ["react", "react/jsx-runtime", "@react-email/components"];

/** A compile failure, worded for the admin who wrote the TSX. */
export class CompileError extends Error {}

const allowImports: Plugin = {
  name: "latchkey-allowed-imports",
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === "entry-point") return undefined;
      if (ALLOWED_IMPORTS.includes(args.path)) return { path: args.path, external: true };
      return { errors: [{ text: `"${args.path}" cannot be imported (only ${ALLOWED_IMPORTS.join(", ")})` }] };
    });
  },
};

function describe(message: Message): string {
  const at = message.location ? ` (line ${message.location.line}, column ${message.location.column + 1})` : "";
  return `${message.text}${at}`;
}

/** `what` names the module in messages ("template", "theme"). */
export async function compileModule(source: string, what: string): Promise<string> {
  try {
    const result = await build({
      stdin: { contents: source, loader: "tsx", sourcefile: `${what}.tsx` },
      bundle: true,
      write: false,
      format: "cjs",
      platform: "neutral",
      target: "es2022",
      jsx: "automatic",
      plugins: [allowImports],
      logLevel: "silent",
    });
    return result.outputFiles[0]!.text;
  } catch (error) {
    const errors = (error as { errors?: Message[] }).errors;
    if (!errors?.length) throw error;
    throw new CompileError(`The ${what} does not compile: ${describe(errors[0]!)}`);
  }
}
