import react from "@vitejs/plugin-react";
import { defaultClientConditions, defineConfig } from "vite";

export default defineConfig({
  plugins: [react()],
  resolve: {
    // Use the workspace packages' TypeScript sources (their "latchkey-source" export), no build needed.
    conditions: ["latchkey-source", ...defaultClientConditions],
  },
});
