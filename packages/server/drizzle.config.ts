import { defineConfig } from "drizzle-kit";

// `npx drizzle-kit generate` (in packages/server) writes a new versioned
// migration from the schema; the server applies them at start.
export default defineConfig({
  dialect: "postgresql",
  schema: "./src/db/schema/index.ts",
  out: "./src/db/migrations",
});
