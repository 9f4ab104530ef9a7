#!/usr/bin/env node
// `node --import tsx scripts/lib/build-for-tests.mjs sdk|dashboard|demo`: builds one of what the browser tests
// serve, into the test run's directories (test-outputs.mjs), as the suite's global setups would. scripts/test.mjs
// runs these beside the type checks, so the tests start with them built; each skips a build of the current sources.
import { setTestOutputs } from "./test-outputs.mjs";

setTestOutputs();
const what = process.argv[2];
if (what === "sdk") {
  const { ensureSdkPacked } = await import("./sdk-build.mjs");
  await ensureSdkPacked({ log: () => {} });
} else if (what === "dashboard") {
  const { ensureDashboardBuilt } = await import("./dashboard-build.mjs");
  await ensureDashboardBuilt({ log: () => {} });
} else if (what === "demo") {
  const { ensureDemoBuilt } = await import("../../packages/react/test/browser/demo-build.ts");
  await ensureDemoBuilt();
} else {
  console.error(`Build what? One of sdk, dashboard, demo (given: ${what ?? "nothing"}).`);
  process.exit(2);
}
