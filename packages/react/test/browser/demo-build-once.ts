/** Vitest global setup of the browser tests: build the demo app once (skipped when the build is of the current sources). */
import { ensureDemoBuilt } from "./demo-build.ts";

export default async function setup() {
  await ensureDemoBuilt();
}
