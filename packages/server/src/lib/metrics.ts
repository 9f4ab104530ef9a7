/**
 * The Prometheus metrics of one server instance (served at GET /metrics,
 * http/metrics.ts). Each instance has its own registry, so several servers
 * in one process (the tests) never mix their counts.
 *
 * Requests are counted by route pattern (/api/v1/users/:user_id), never the
 * raw path, which would make one series per user (lib/request-stats.ts).
 */
import { KnownError, RateLimitedError, StatusError } from "@latchkey/shared";
import { Counter, Gauge, Registry, collectDefaultMetrics } from "prom-client";
import { RequestStats } from "./request-stats.ts";

/** Seconds; most answers take a millisecond or less, sign-ins (argon2) tens to hundreds. */
const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export type SignInMethod = "password" | "otp" | "passkey" | "oauth" | "totp";

export class Metrics {
  readonly registry = new Registry();
  readonly #requests = new RequestStats(
    this.registry,
    { requests: "latchkey_http_requests_total", duration: "latchkey_http_request_duration_seconds" },
    LATENCY_BUCKETS,
  );
  readonly #signIns = new Counter({
    name: "latchkey_sign_ins_total",
    help: "Sign-in attempts by method and outcome (success, mfa_required, rate_limited, failure, error); error_code names a known error.",
    labelNames: ["method", "outcome", "error_code"] as const,
    registers: [this.registry],
  });
  readonly emailDeliveryFailures = new Counter({
    name: "latchkey_email_delivery_failures_total",
    help: "Failed e-mail delivery attempts; final=true when the message will not be tried again.",
    labelNames: ["final"] as const,
    registers: [this.registry],
  });

  constructor() {
    collectDefaultMetrics({ register: this.registry });
  }

  /** Called once per request, on the hot path. */
  request(method: string, route: string, status: number, seconds: number): void {
    this.#requests.record(method, route, status, seconds);
  }

  /**
   * Counts one sign-in attempt by how it ended and passes its result on. A second factor asked
   * for is an outcome of its own; a wrong password, code or passkey is a failure with its code.
   */
  async signIn<T>(method: SignInMethod, attempt: Promise<T>): Promise<T> {
    try {
      const result = await attempt;
      this.#signIns.inc({ method, outcome: "success", error_code: "" });
      return result;
    } catch (error) {
      // A refusal without a catalogue code (sign-in turned off, say) is named by its status.
      const code = error instanceof KnownError ? error.code : error instanceof StatusError ? `HTTP_${error.status}` : null;
      const outcome =
        code === "MULTI_FACTOR_AUTHENTICATION_REQUIRED"
          ? "mfa_required"
          : error instanceof RateLimitedError
            ? "rate_limited"
            : code
              ? "failure"
              : "error";
      this.#signIns.inc({ method, outcome, error_code: outcome === "failure" ? code! : "" });
      throw error;
    }
  }

  /** A gauge read when scraped (a scrape-time query, not one per request); a failed read leaves it unset. */
  gauge(name: string, help: string, read: () => Promise<number> | number): void {
    new Gauge({
      name,
      help,
      registers: [this.registry],
      async collect() {
        try {
          this.set(await read());
        } catch {
          this.reset();
        }
      },
    });
  }
}
