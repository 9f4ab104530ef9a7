/**
 * Registering a passkey for the signed-in user: options with a fresh
 * challenge (its digest kept in a single-use code that also names the
 * user), then the authenticator's answer, verified with
 * @simplewebauthn/server and stored as the user's next passkey. A user may
 * have several; the options list the ones they have, so the browser refuses
 * to register the same authenticator twice.
 *
 * A refused answer leaves the code unused (its attempt counted), so the
 * page may retry; a stored passkey spends it.
 */
import {
  KnownErrors,
  PASSKEY_CEREMONY_TIMEOUT_MILLIS,
  PASSKEY_CHALLENGE_EXPIRATION_MILLIS,
  PASSKEY_RP_ID_SENTINEL,
  type PasskeyRegistrationInitiatedJson,
} from "@latchkey/shared";
import type { RegistrationResponseJSON, VerifiedRegistrationResponse } from "@simplewebauthn/server";
import type { EventTx } from "../../../events/transaction.ts";
import { passkeys } from "../../../db/schema/index.ts";
import type { Services } from "../../../services.ts";
import { createCode, useCode, type CodeScope } from "../../codes/verification-codes.ts";
import type { UserRecord } from "../../users/record.ts";
import { requireUser } from "../../contact-channels/channels.ts";
import { listPasskeys, syncPasskeyFlag } from "./passkeys.ts";
import { CHALLENGE_MISMATCH, ceremonyChallenge, challengeDigest, relyingPartyOf } from "./relying-party.ts";
import { webauthn, webauthnHelpers } from "./webauthn.ts";
import type { Tenancy } from "../../../db/tenancy.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

/** ES256, RS256 and EdDSA: what nearly every authenticator offers. */
export const PASSKEY_ALGORITHMS = [-8, -7, -257];

interface RegistrationCodeData {
  user_id: string;
  challenge_sha256: string;
  /** The WebAuthn user handle the options named (base64url). */
  user_handle: string;
}

export async function initiatePasskeyRegistration(
  services: Services,
  project: ProjectRow,
  branchId: string,
  user: UserRecord,
): Promise<PasskeyRegistrationInitiatedJson> {
  const tenancy = { projectId: project.id, branchId };
  const existing = await listPasskeys(services.db, tenancy, user.id);
  const name = user.displayName || user.primaryEmail || "Latchkey user";
  const options = await (
    await webauthn()
  ).generateRegistrationOptions({
    rpName: project.displayName,
    rpID: PASSKEY_RP_ID_SENTINEL,
    // The user id's text: 36 bytes, within WebAuthn's 1 to 64, and the same for every passkey of the user.
    userID: new TextEncoder().encode(user.id),
    userName: name,
    userDisplayName: name,
    timeout: PASSKEY_CEREMONY_TIMEOUT_MILLIS,
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "preferred" },
    supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    ...ceremonyChallenge(services.config, project),
  });
  const { hints, ...optionsJson } = options;
  const data: RegistrationCodeData = {
    user_id: user.id,
    challenge_sha256: challengeDigest(options.challenge),
    user_handle: options.user.id,
  };
  const scope: CodeScope = { ...tenancy, purpose: "passkey_registration" };
  const { code } = await createCode(services.db, scope, { ...data }, new Date(services.clock.now() + PASSKEY_CHALLENGE_EXPIRATION_MILLIS));
  const rp = { ...options.rp, id: options.rp.id ?? PASSKEY_RP_ID_SENTINEL };
  return { options_json: { ...optionsJson, rp, user: { ...options.user }, ...(hints && hints.length > 0 ? { hints } : {}) }, code };
}

type Verified = Extract<VerifiedRegistrationResponse, { verified: true }>["registrationInfo"];

/** Verifies the answer and stores the passkey; returns its credential id. */
export async function registerPasskey(
  services: Services,
  project: ProjectRow,
  branchId: string,
  user: UserRecord,
  credential: RegistrationResponseJSON,
  code: string,
): Promise<string> {
  const tenancy = { projectId: project.id, branchId };
  const scope: CodeScope = { ...tenancy, purpose: "passkey_registration" };
  // Set by the check, used by the write, both inside the code's transaction.
  let verified: Verified | null = null;
  return useCode<RegistrationCodeData, string>(
    services,
    scope,
    code,
    async (tx, data) => {
      const info = verified!;
      await storePasskey(services, tx, tenancy, data, info);
      return info.credential.id;
    },
    async (_tx, data) => {
      if (data.user_id !== user.id) {
        return new KnownErrors.PasskeyRegistrationFailed("this code was issued to another user. Start the registration again.");
      }
      const outcome = await verifyAnswer(project, credential, data);
      if ("failure" in outcome) return new KnownErrors.PasskeyRegistrationFailed(outcome.failure);
      verified = outcome.verified;
      return null;
    },
  );
}

async function verifyAnswer(
  project: ProjectRow,
  credential: RegistrationResponseJSON,
  data: RegistrationCodeData,
): Promise<{ verified: Verified } | { failure: string }> {
  const party = await relyingPartyOf(project.config, credential.response.clientDataJSON);
  if ("failure" in party) return party;
  const { origin, rpId, challenge } = party.relyingParty;
  if (challengeDigest(challenge) !== data.challenge_sha256) return { failure: CHALLENGE_MISMATCH };
  try {
    const result = await (
      await webauthn()
    ).verifyRegistrationResponse({
      response: credential,
      expectedChallenge: (given) => challengeDigest(given) === data.challenge_sha256,
      expectedOrigin: origin,
      expectedRPID: rpId,
      expectedType: "webauthn.create",
      requireUserVerification: false,
      supportedAlgorithmIDs: PASSKEY_ALGORITHMS,
    });
    if (!result.verified) return { failure: "the authenticator's answer could not be verified" };
    return { verified: result.registrationInfo };
  } catch (error) {
    return { failure: `the authenticator's answer could not be verified (${error instanceof Error ? error.message : String(error)})` };
  }
}

async function storePasskey(services: Services, tx: EventTx, tenancy: Tenancy, data: RegistrationCodeData, info: Verified): Promise<void> {
  // The user's row lock orders this with removals of their passkeys (passkeys.ts).
  await requireUser(tx, tenancy, data.user_id, true);
  const inserted = await tx
    .insert(passkeys)
    .values({
      ...tenancy,
      userId: data.user_id,
      credentialId: info.credential.id,
      publicKey: (await webauthnHelpers()).isoBase64URL.fromBuffer(info.credential.publicKey),
      counter: info.credential.counter,
      transports: info.credential.transports ?? [],
      userHandle: data.user_handle,
      deviceType: info.credentialDeviceType,
      backedUp: info.credentialBackedUp,
      displayName: defaultPasskeyName(info.credentialDeviceType, services.clock.date()),
    })
    .onConflictDoNothing()
    .returning({ id: passkeys.id });
  if (inserted.length === 0) {
    throw new KnownErrors.PasskeyRegistrationFailed("this passkey is already registered. Sign in with it, or register another one.");
  }
  await syncPasskeyFlag(tx, tenancy, data.user_id);
}

/** What a new passkey is called until its user renames it. */
export function defaultPasskeyName(deviceType: string, createdAt: Date): string {
  const kind = deviceType === "multiDevice" ? "Synced passkey" : "Passkey";
  return `${kind} added ${createdAt.toISOString().slice(0, 10)}`;
}
