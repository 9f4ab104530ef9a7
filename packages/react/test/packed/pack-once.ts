/** Vitest global setup of the packed-SDK test: build and pack the SDK once (skipped when the tarballs are of the current sources). */
import { ensureSdkPacked } from "../../../../scripts/lib/sdk-build.mjs";

export default async function setup() {
  await ensureSdkPacked({ log: () => {} });
}
