/**
 * What time it is for a project's payments. Every payments read and write
 * that asks (periods, renewals, included item grants, item changes,
 * purchase codes' expiry) asks `paymentsNow`: the server's clock, plus, while
 * the project is in test mode, however far its test clock has been moved
 * (POST /internal/payments/test-clock/advance), so a developer sees month
 * three of a subscription today. The test clock only moves forward.
 */
import { StatusError, type RenderedConfig } from "@latchkey/shared";
import { sql } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import type { Services } from "../../../services.ts";
import { paymentTestClocks } from "../schema.ts";

export const TEST_MODE_OFF_MESSAGE = "Test mode is not enabled for this project";

export function isTestMode(config: RenderedConfig): boolean {
  return config.payments.testMode;
}

async function testClockOffset(db: DbOrTx, scope: Tenancy): Promise<number> {
  const [row] = await db
    .select({ offsetMs: paymentTestClocks.offsetMs })
    .from(paymentTestClocks)
    .where(inTenancy(paymentTestClocks, scope));
  return row?.offsetMs ?? 0;
}

/** The project's payments time (see the top of this file). */
export async function paymentsNow(services: Services, db: DbOrTx, scope: Tenancy, config: RenderedConfig): Promise<Date> {
  const offset = isTestMode(config) ? await testClockOffset(db, scope) : 0;
  return new Date(services.clock.now() + offset);
}

export interface TestClockState {
  offsetMs: number;
  now: Date;
  testMode: boolean;
}

/** The wire view of the state (GET and POST /internal/payments/test-clock…). */
export function testClockView(state: TestClockState) {
  return { offset_ms: state.offsetMs, now_millis: state.now.getTime(), test_mode: state.testMode };
}

export async function testClockState(services: Services, scope: Tenancy, config: RenderedConfig): Promise<TestClockState> {
  const offsetMs = await testClockOffset(services.db, scope);
  return { offsetMs, now: await paymentsNow(services, services.db, scope, config), testMode: isTestMode(config) };
}

/** Moves the project's payments time forward by `ms` (test mode only: real purchases keep real time). */
export async function advanceTestClock(services: Services, scope: Tenancy, config: RenderedConfig, ms: number): Promise<TestClockState> {
  if (!isTestMode(config)) throw new StatusError(403, TEST_MODE_OFF_MESSAGE);
  await services.db
    .insert(paymentTestClocks)
    .values({ ...scope, offsetMs: ms })
    .onConflictDoUpdate({
      target: [paymentTestClocks.projectId, paymentTestClocks.branchId],
      set: { offsetMs: sql`${paymentTestClocks.offsetMs} + ${ms}` },
    });
  return testClockState(services, scope, config);
}
