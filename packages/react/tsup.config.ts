import { defineConfig } from "tsup";

// One ESM file with its declarations, marked as client code for frameworks
// with server components. React and @latchkey/js stay external.
export default defineConfig({
  entry: ["src/index.ts"],
  format: ["esm"],
  dts: true,
  external: ["react", "react-dom", "@latchkey/js"],
  clean: true,
  target: "es2022",
  sourcemap: true,
  banner: { js: '"use client";' },
});
