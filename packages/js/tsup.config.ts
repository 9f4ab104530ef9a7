import { defineConfig } from "tsup";

// One ESM file with its declarations. @latchkey/shared (the error catalogue
// and constants) is bundled in, so the published package stands alone.
export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  dts: { resolve: ["@latchkey/shared"] },
  noExternal: ["@latchkey/shared"],
  clean: true,
  target: "es2022",
  sourcemap: true,
});
