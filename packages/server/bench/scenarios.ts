/**
 * What is measured, against a server that is already running and seeded:
 * autocannon scenarios (cannon.ts runs them) by area: reads (read-scenarios.ts), the API key check paired with
 * the session read (api-key-scenario.ts), sign-ins with the argon2id verify rate and the timing probe
 * (sign-in-scenarios.ts), sign-ups with and without webhooks (sign-up-scenarios.ts); then the concurrent sign-up
 * burst of one e-mail. The hello ceiling is ceiling.ts's. Results go into a DatabaseReport (scenario-run.ts),
 * which report.ts renders. Everything here only measures; starting and stopping processes is processes.ts's job.
 */
import { CONNECTIONS, PASSWORD, RUN_ID } from "./config.ts";
import { apiKeyCheck } from "./api-key-scenario.ts";
import { pipelineFloor, refreshes, teamReads, usersMe } from "./read-scenarios.ts";
import type { DatabaseReport } from "./scenario-run.ts";
import { burst, call, type Fixture } from "./setup.ts";
import { signIns, timingProbe } from "./sign-in-scenarios.ts";
import { signUps } from "./sign-up-scenarios.ts";

/**
 * The load scenarios chosen by BENCH_SCENARIOS (all but the hello ceiling),
 * then the robustness and timing probes, against the running server `pid` at
 * `base`. Fills `report` as it goes, so what was measured before a failure is kept.
 */
export async function runScenarios(label: string, base: string, pid: number, fx: Fixture, report: DatabaseReport): Promise<void> {
  const run = { label, base, pid, fx, report };
  await pipelineFloor(run);
  await usersMe(run);
  await apiKeyCheck(run);
  await teamReads(run);
  await refreshes(run);
  await signIns(run);
  await signUps(run);

  process.stdout.write(`[${label}] robustness and timing probes…\n`);
  const raceEmail = `race-${RUN_ID}@example.com`;
  report.race = (
    await burst(
      Array.from(
        { length: CONNECTIONS },
        () => () =>
          call(base, "/auth/password/sign-up", { method: "POST", headers: fx.client, body: { email: raceEmail, password: PASSWORD } }),
      ),
    )
  ).result;
  report.probe = await timingProbe(base, fx);
}
