/**
 * Who the relying party is, for one ceremony. The server hands out options
 * with a placeholder relying-party id (PASSKEY_RP_ID_SENTINEL): one project
 * serves apps on several domains, and only the browser knows which page it
 * is on. The authenticator's answer then names that page's origin in its
 * signed client data; the origin is accepted only on one of the project's
 * trusted domains (wildcards included, localhost when the project allows
 * it), and the relying-party id the authenticator signed must be its
 * hostname. A passkey thus works on the domain it was made on and nowhere
 * else, as WebAuthn intends.
 *
 * The challenge is kept only as a digest in the ceremony's code
 * (domain/codes/verification-codes.ts), and compared as one.
 */
import { KnownErrors } from "@latchkey/shared";
import { webauthnHelpers } from "./webauthn.ts";
import type { ServerConfig } from "../../../config.ts";
import { sha256Hex } from "../../../lib/secrets.ts";
import type { ProjectConfig } from "../../projects/config.ts";
import { isTrustedUrl } from "../../projects/trusted-urls.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

/** The four ceremony endpoints answer PASSKEY_AUTHENTICATION_NOT_ENABLED while the project has passkeys off. */
export function requirePasskeysEnabled(config: Pick<ProjectConfig, "passkey_enabled">): void {
  if (!config.passkey_enabled) throw new KnownErrors.PasskeyAuthenticationNotEnabled();
}

export interface RelyingParty {
  /** The page's origin, as the browser wrote it into the client data. */
  origin: string;
  /** The origin's hostname: the relying-party id the passkey must be scoped to. */
  rpId: string;
  /** The challenge the client data carries (base64url). */
  challenge: string;
}

export type RelyingPartyOutcome = { relyingParty: RelyingParty } | { failure: string };

/** Reads the client data of an authenticator's answer and checks its origin against the project's trusted domains. */
export async function relyingPartyOf(
  config: Pick<ProjectConfig, "allow_localhost" | "domains">,
  clientDataJSON: string,
): Promise<RelyingPartyOutcome> {
  const { decodeClientDataJSON } = await webauthnHelpers();
  let origin: string;
  let challenge: string;
  try {
    ({ origin, challenge } = decodeClientDataJSON(clientDataJSON));
  } catch {
    return { failure: "the client data (response.clientDataJSON) is not base64url-encoded JSON" };
  }
  if (typeof origin !== "string" || typeof challenge !== "string") {
    return { failure: "the client data (response.clientDataJSON) names no origin or no challenge" };
  }
  if (!isTrustedUrl(config, origin)) {
    return {
      failure: `the origin ${JSON.stringify(origin)} is not allowed. Add it to the project's trusted domains (or allow localhost while developing).`,
    };
  }
  return { relyingParty: { origin, rpId: new URL(origin).hostname, challenge } };
}

/** What a ceremony's code keeps of its challenge. */
export function challengeDigest(challenge: string): string {
  return sha256Hex(challenge);
}

export const CHALLENGE_MISMATCH =
  "the answer was made for another challenge than this code's. Start the ceremony again and answer its own options.";

/**
 * The fixed challenge of test set-ups (ServerConfig.passkeyTestChallenge),
 * for projects still in development; otherwise the library draws a random
 * one. A project in production mode always gets random challenges: with a
 * fixed one, a captured answer from an authenticator that never counts (synced
 * passkeys report 0) could be replayed with a fresh code, even on a server
 * started with the variable on by mistake.
 */
export function ceremonyChallenge(
  config: Pick<ServerConfig, "passkeyTestChallenge">,
  project: Pick<ProjectRow, "isProductionMode">,
): { challenge?: Uint8Array<ArrayBuffer> } {
  return config.passkeyTestChallenge && !project.isProductionMode ? { challenge: new TextEncoder().encode("MOCK") } : {};
}
