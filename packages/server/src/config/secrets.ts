/** The server secret, the data vault's secrets and the internal project's seeded keys. */
import { StartupError } from "../process/startup-error.ts";
import { productionReason } from "./production.ts";

export interface SecretsConfig {
  serverSecret: string;
  /**
   * The secrets the data vault's key-encryption keys are derived from (LATCHKEY_DATA_VAULT_SECRETS,
   * comma-separated): the first wraps every new data key, all of them unwrap, so during a rotation the old
   * one stays readable (capabilities/data-vault/domain/local-sealer.ts). Null: the server secret alone.
   */
  dataVaultSecrets: readonly string[] | null;
  seedInternalKeys: {
    publishableClientKey: string | null;
    secretServerKey: string | null;
    superSecretAdminKey: string | null;
  };
}

/** Shorter secrets are refused in production and warned about in development. */
export const MIN_SERVER_SECRET_LENGTH = 32;

/** Never generated in production: replicas and new containers must all decrypt what one of them sealed. */
export function serverSecretFromEnv(env: NodeJS.ProcessEnv, production: boolean): string | null {
  const secret = env.STACK_SERVER_SECRET || null;
  if (!production) return secret;
  const fix = `set it to the same random string of at least ${MIN_SERVER_SECRET_LENGTH} characters on every replica, e.g. the output of \`openssl rand -hex 32\``;
  if (!secret) throw new StartupError(`STACK_SERVER_SECRET is required in production (${productionReason(env)}): ${fix}.`);
  if (secret.length < MIN_SERVER_SECRET_LENGTH) {
    throw new StartupError(`STACK_SERVER_SECRET is ${secret.length} characters long, too short for production: ${fix}.`);
  }
  return secret;
}

/**
 * LATCHKEY_DATA_VAULT_SECRETS: the newest secret first, then those still to be read (a rotation); blanks
 * around the commas are ignored. Production wants each as long as a server secret.
 */
export function dataVaultSecretsFromEnv(env: NodeJS.ProcessEnv, production: boolean): string[] | null {
  const text = env.LATCHKEY_DATA_VAULT_SECRETS?.trim();
  if (!text) return null;
  const secrets = text.split(",").map((s) => s.trim());
  if (secrets.some((s) => s === "")) {
    throw new StartupError(
      "LATCHKEY_DATA_VAULT_SECRETS has an empty entry: list the secrets separated by single commas, the newest first.",
    );
  }
  if (new Set(secrets).size !== secrets.length) {
    throw new StartupError("LATCHKEY_DATA_VAULT_SECRETS lists a secret twice: list each once, the newest first.");
  }
  const short = secrets.findIndex((s) => s.length < MIN_SERVER_SECRET_LENGTH);
  if (production && short !== -1) {
    throw new StartupError(
      `LATCHKEY_DATA_VAULT_SECRETS entry ${short + 1} is shorter than ${MIN_SERVER_SECRET_LENGTH} characters, too short for production: use e.g. the output of \`openssl rand -hex 32\`.`,
    );
  }
  return secrets;
}

/** Fixed keys of the internal project, for headless set-ups (STACK_SEED_INTERNAL_PROJECT_*); each null when unset. */
export function seedInternalKeysFromEnv(env: NodeJS.ProcessEnv): SecretsConfig["seedInternalKeys"] {
  return {
    publishableClientKey: env.STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY || null,
    secretServerKey: env.STACK_SEED_INTERNAL_PROJECT_SECRET_SERVER_KEY || null,
    superSecretAdminKey: env.STACK_SEED_INTERNAL_PROJECT_SUPER_SECRET_ADMIN_KEY || null,
  };
}
