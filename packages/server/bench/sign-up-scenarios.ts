/**
 * Sign-ups: the plain password sign-up, and the same with WEBHOOK_ENDPOINTS endpoints on the project, whose
 * deliveries are drained and counted (report.ts compares the two).
 */
import { PASSWORD, RUN_ID, WARMUP, wanted } from "./config.ts";
import { cannon, jsonPost } from "./cannon.ts";
import type { ScenarioRun } from "./scenario-run.ts";
import { call } from "./setup.ts";
import { addEndpoints, deliveryFigures, startBenchReceiver, WEBHOOK_ENDPOINTS } from "./webhooks.ts";

export const SIGN_UP = "POST /auth/password/sign-up";
export const SIGN_UP_WEBHOOKS = `POST /auth/password/sign-up (${WEBHOOK_ENDPOINTS} webhook endpoints)`;
/** How long the deliveries of the sign-up-webhooks load may take to drain before the run counts as failed. */
const DRAIN_TIMEOUT_MILLIS = 300_000;
/** No delivery for this long after the last sign-up's: the queue is empty. */
const DRAIN_QUIET_MILLIS = 500;

export async function signUps(run: ScenarioRun): Promise<void> {
  const { label, base, pid, fx, report } = run;
  // The sign-up with webhooks is compared with the plain sign-up of the same run, which it needs.
  if (wanted("sign-up") || wanted("sign-up-webhooks")) {
    process.stdout.write(`[${label}] sign-up…\n`);
    let n = 0;
    const request = jsonPost("/api/v1/auth/password/sign-up", () => ({
      email: `load-${RUN_ID}-${label.toLowerCase()}-${n++}@example.com`,
      password: PASSWORD,
    }));
    report.rows.push(await cannon(SIGN_UP, base, { headers: fx.client, request, pid }));
  }
  if (wanted("sign-up-webhooks")) {
    // From here on the project has endpoints: the probes below send webhooks too (their figures are not rates).
    process.stdout.write(`[${label}] ${WEBHOOK_ENDPOINTS} webhook endpoints on the project, then sign-up…\n`);
    const receiver = await startBenchReceiver();
    try {
      await addEndpoints(base, fx, receiver.url);
      let n = 0;
      const request = jsonPost("/api/v1/auth/password/sign-up", () => ({
        email: `load-webhooks-${RUN_ID}-${label.toLowerCase()}-${n++}@example.com`,
        password: PASSWORD,
      }));
      // Drained: one more sign-up's messages have reached every endpoint (jobs are claimed in order of due time),
      // and nothing more comes.
      const drain = async (what: string) => {
        const last = `drained-${what}-${RUN_ID}-${label.toLowerCase()}@example.com`;
        const lastSeen = receiver.seen(last, WEBHOOK_ENDPOINTS);
        const res = await call(base, "/auth/password/sign-up", {
          method: "POST",
          headers: fx.client,
          body: { email: last, password: PASSWORD },
        });
        if (res.status !== 200) throw new Error(`the sign-up after the ${what}: ${res.status} ${JSON.stringify(res.body)}`);
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          lastSeen,
          new Promise((_, reject) => {
            timer = setTimeout(
              () => reject(new Error(`webhook deliveries not drained ${DRAIN_TIMEOUT_MILLIS / 1000} s after the ${what}`)),
              DRAIN_TIMEOUT_MILLIS,
            );
          }),
        ]).finally(() => clearTimeout(timer));
        for (let count = -1; count !== receiver.arrivals.length;) {
          count = receiver.arrivals.length;
          await new Promise((resolve) => setTimeout(resolve, DRAIN_QUIET_MILLIS));
        }
      };
      // The warm-up's deliveries are drained before the load, so the figures count the load's own.
      await cannon("warm-up", base, { headers: fx.client, request, pid }, WARMUP);
      await drain("warm-up");
      let started = NaN;
      const row = await cannon(SIGN_UP_WEBHOOKS, base, { headers: fx.client, request, pid, onStart: () => (started = performance.now()) });
      const loadEnded = performance.now();
      report.rows.push(row);
      await drain("load");
      report.webhookDeliveries = deliveryFigures(receiver, started, loadEnded);
    } finally {
      await receiver.close();
    }
  }
}
