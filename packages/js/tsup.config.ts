import { defineConfig } from "tsup";

// One ESM file with its declarations. @latchkey/shared (the error catalogue,
// constants and the API contract's types) is bundled in, so the published
// package stands alone: its declarations need only zod's types (a dependency).
// The paths point the declaration bundler at shared's sources, which it does
// not find through the package's "exports" on its own.
export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  dts: {
    resolve: [/^@latchkey\/shared/],
    compilerOptions: {
      baseUrl: ".",
      paths: { "@latchkey/shared": ["../shared/src/index.ts"], "@latchkey/shared/*": ["../shared/src/*.ts"] },
    },
  },
  noExternal: ["@latchkey/shared"],
  clean: true,
  target: "es2022",
  sourcemap: true,
});
