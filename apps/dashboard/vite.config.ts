import react from "@vitejs/plugin-react";
import { defaultClientConditions, defineConfig } from "vite";

// The server serves the built files (dist/) at / and answers every page URL with index.html.
export default defineConfig({
  plugins: [react()],
  resolve: {
    // Use the workspace packages' TypeScript sources (their "latchkey-source" export), no build needed.
    conditions: ["latchkey-source", ...defaultClientConditions],
  },
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 900 },
  server: { proxy: { "/api": `http://localhost:${process.env.PORT ?? 8102}` } },
});
