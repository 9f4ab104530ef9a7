/** Vitest global setup of the dashboard's browser tests: build the dashboard once (skipped when dist/ is of the current sources). */
import { ensureDashboardBuilt } from "../../../scripts/lib/dashboard-build.mjs";

export default async function setup() {
  await ensureDashboardBuilt({ log: () => {} });
}
