/**
 * One database's results (DatabaseReport, which report.ts renders), and what each scenario is given to fill them:
 * the running server and the seeded fixture (ScenarioRun).
 */
import type { Row } from "./cannon.ts";
import type { BurstResult, Fixture } from "./setup.ts";
import type { HashRate, TimingProbe } from "./sign-in-scenarios.ts";
import type { DeliveryFigures } from "./webhooks.ts";

export interface DatabaseReport {
  label: string;
  /** 1-minute load average when the section started and ended. */
  load: [number, number];
  /** Median /users/me latency of one sequential client, idle and during the sign-in load. */
  meDuringSignIn: { idle: number; busy: number; count: number } | null;
  /** argon2id verify rate measured just before the sign-in scenario. */
  hash: HashRate | null;
  ceiling: Row | null;
  rows: Row[];
  burst: BurstResult | null;
  race: BurstResult | null;
  probe: TimingProbe | null;
  /** What the receiver of the sign-up-webhooks scenario counted. */
  webhookDeliveries: DeliveryFigures | null;
  serverErrors: string[];
  failure: string | null;
}

/** What the scenarios may ask of the orchestrator (run.ts), which owns the server process. */
/** A scenario's view of the run: the server `pid` at `base`, seeded with `fx`; it adds what it measures to `report`. */
export interface ScenarioRun {
  label: string;
  base: string;
  pid: number;
  fx: Fixture;
  report: DatabaseReport;
}
