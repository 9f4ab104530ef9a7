/**
 * Every capability of the server (define.ts says what one is), registered
 * here once. The route table serves each one's routes/ folder beside
 * src/routes/ (route-table.ts), the server wires their event subscriptions
 * and housekeeping (server.ts), and db/schema/index.ts re-exports their
 * tables.
 */
import aiChat from "./ai-chat/capability.ts";
import cliLogin from "./cli-login/capability.ts";
import dataVault from "./data-vault/capability.ts";
import images from "./images/capability.ts";
import payments from "./payments/capability.ts";
import userTeamApiKeys from "./user-team-api-keys/capability.ts";
import webhooks from "./webhooks/capability.ts";
import workflows from "./workflows/capability.ts";
import type { Capability, EventSubscription, HousekeepingTask } from "./define.ts";

export const capabilities: readonly Capability[] = [cliLogin, images, aiChat, dataVault, userTeamApiKeys, webhooks, workflows, payments];

/** The folder (under src/) of a capability's route files. */
export function capabilityRoutesDir(capability: Pick<Capability, "name">): string {
  return `capabilities/${capability.name}/routes`;
}

export function capabilityHousekeeping(): HousekeepingTask[] {
  return capabilities.flatMap((capability) => capability.housekeeping);
}

export function capabilitySubscriptions(): EventSubscription[] {
  return capabilities.flatMap((capability) => capability.events.subscribes);
}

export function capabilityJobs(): Capability["jobs"][number][] {
  return capabilities.flatMap((capability) => capability.jobs);
}

export function capabilityJobFeeders(): NonNullable<Capability["jobFeeders"]>[number][] {
  return capabilities.flatMap((capability) => capability.jobFeeders ?? []);
}
