/**
 * What a kind of job is: its payload, the handler that runs it and how it retries. Each kind names its payload
 * in JobPayloads, so enqueueing checks what is put in; its handler is registered with the runner at start
 * (JobRunner.register) by the part of the server that owns the work.
 */

/** The payload of each kind, as stored (JSON). */
export interface JobPayloads {
  /** A message recorded in sent_emails (domain/emails/queue.ts). */
  "email.send": { email_id: string };
  /** One message to one endpoint (capabilities/webhooks); `manual`: a resend or recovery asked for by an owner. */
  "webhook.deliver": { message_id: string; endpoint_id: string; manual: boolean };
  /** One run of a workflow (capabilities/workflows), recorded in workflow_runs. */
  "workflow.run": { run_id: string };
}

export type JobKind = keyof JobPayloads;

/** Where a job belongs, when it works for one tenancy; `branchId` null for the whole project. */
export interface JobTenancy {
  projectId: string;
  branchId: string | null;
}

/**
 * How a kind retries. The first attempt runs when due; after attempt n fails, attempt n + 1 is due
 * `backoffMillis[n - 1]` later (the last delay repeats), until `maxAttempts` have failed.
 */
export interface RetryPolicy {
  maxAttempts: number;
  backoffMillis: readonly number[];
}

/** The delay before the attempt after `attempt` (1-based), or null when `attempt` was the last. */
export function retryDelayMillis(policy: RetryPolicy, attempt: number): number | null {
  if (attempt >= policy.maxAttempts) return null;
  const delays = policy.backoffMillis;
  return delays.length === 0 ? 0 : delays[Math.min(attempt, delays.length) - 1]!;
}

/** What a handler is told about the attempt it runs. */
export interface JobContext<K extends JobKind = JobKind> {
  id: string;
  kind: K;
  payload: JobPayloads[K];
  tenancy: JobTenancy | null;
  /** 1 for the first attempt. */
  attempt: number;
  /** This attempt's claim: writes a handler makes may be conditional on it, as the outcome is. */
  claim: string;
  /** When the next attempt is due if this one throws; null when it is the last. */
  retryAt: Date | null;
}

/**
 * A kind's handler and policy. The handler resolving marks the job done; throwing schedules the next attempt
 * (or fails the job when none is left); throwing FinalJobError fails it at once. A handler must finish well
 * within `leaseMillis`: past it, another replica takes the job for abandoned and runs it again.
 */
export interface JobKindDefinition<K extends JobKind = JobKind> {
  kind: K;
  retry: RetryPolicy;
  leaseMillis: number;
  handler: (job: JobContext<K>) => Promise<void>;
}

/** The definition of one kind of job, whichever. */
export type AnyJobKindDefinition = { [K in JobKind]: JobKindDefinition<K> }[JobKind];

/** A failure that no later attempt would change: the job fails now, whatever attempts are left. */
export class FinalJobError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "FinalJobError";
  }
}

/**
 * Work that becomes jobs after a commit rather than in it (the webhook fan-out): the runner runs each feeder
 * before it claims, so the jobs it makes are run in the same wake. `feed` resolves with how much it took.
 */
export interface JobFeeder {
  name: string;
  feed(): Promise<number>;
}
