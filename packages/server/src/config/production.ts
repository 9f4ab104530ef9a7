/** Production mode (ServerConfig.production), and how the start-up errors that need it name its cause. */

/** Production mode (ServerConfig.production). */
export function productionFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.NODE_ENV === "production" || Boolean(env.DATABASE_URL);
}

/** Why the process is in production mode, for the errors of variables production requires. */
export function productionReason(env: NodeJS.ProcessEnv): string {
  return env.DATABASE_URL ? "DATABASE_URL is set" : "NODE_ENV=production";
}
