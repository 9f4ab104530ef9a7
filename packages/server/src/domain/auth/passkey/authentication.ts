/**
 * Signing in with a passkey: options with a fresh challenge and no list of
 * credentials (the authenticator offers the user the passkeys it holds for
 * the site), then its signed answer. The credential it names must be a
 * passkey of this project; its stored public key must verify the signature,
 * and its signature counter must move forward (a counter that does not,
 * while either count is above zero, suggests a cloned authenticator). The
 * sign-in then ends like every other (complete-sign-in.ts): a user with
 * two-factor on gets an attempt code instead of tokens.
 *
 * The passkey's row is locked while its answer is checked, so two answers
 * of one authenticator are counted one after the other.
 */
import {
  KnownErrors,
  PASSKEY_CEREMONY_TIMEOUT_MILLIS,
  PASSKEY_CHALLENGE_EXPIRATION_MILLIS,
  PASSKEY_RP_ID_SENTINEL,
  type PasskeyAuthenticationInitiatedJson,
} from "@latchkey/shared";
import type { AuthenticationResponseJSON } from "@simplewebauthn/server";
import { and, eq } from "drizzle-orm";
import type { Tx } from "../../../db/connect.ts";
import { passkeys, users, type PasskeyRow } from "../../../db/schema/index.ts";
import type { Services } from "../../../services.ts";
import { createCode, useCode, type CodeScope } from "../../codes/verification-codes.ts";
import { findUser } from "../../users/record.ts";
import { completeSignIn, signedInOrMfaRequired, type SignedIn, type SignInOutcome } from "../complete-sign-in.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import { CHALLENGE_MISMATCH, ceremonyChallenge, challengeDigest, relyingPartyOf } from "./relying-party.ts";
import { webauthn, webauthnHelpers } from "./webauthn.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

interface AuthenticationCodeData {
  challenge_sha256: string;
}

export async function initiatePasskeyAuthentication(
  services: Services,
  project: ProjectRow,
  branchId: string,
): Promise<PasskeyAuthenticationInitiatedJson> {
  const options = await (
    await webauthn()
  ).generateAuthenticationOptions({
    rpID: PASSKEY_RP_ID_SENTINEL,
    allowCredentials: [],
    userVerification: "preferred",
    timeout: PASSKEY_CEREMONY_TIMEOUT_MILLIS,
    ...ceremonyChallenge(services.config, project),
  });
  const data: AuthenticationCodeData = { challenge_sha256: challengeDigest(options.challenge) };
  const scope: CodeScope = { projectId: project.id, branchId, purpose: "passkey_authentication" };
  const { code } = await createCode(services.db, scope, { ...data }, new Date(services.clock.now() + PASSKEY_CHALLENGE_EXPIRATION_MILLIS));
  const { hints, rpId, ...rest } = options;
  return { options_json: { ...rest, rpId: rpId ?? PASSKEY_RP_ID_SENTINEL, ...(hints && hints.length > 0 ? { hints } : {}) }, code };
}

interface Accepted {
  passkey: PasskeyRow;
  newCounter: number;
  backedUp: boolean;
}

export async function signInWithPasskey(
  services: Services,
  project: ProjectRow,
  branchId: string,
  answer: AuthenticationResponseJSON,
  code: string,
  ip: string | null = null,
): Promise<SignedIn> {
  const tenancy: Tenancy = { projectId: project.id, branchId };
  const scope: CodeScope = { ...tenancy, purpose: "passkey_authentication" };
  // Set by the check, used by the write, both inside the code's transaction.
  let accepted: Accepted | null = null;
  const outcome = await useCode<AuthenticationCodeData, SignInOutcome>(
    services,
    scope,
    code,
    async (tx, _data) => {
      const { passkey, newCounter, backedUp } = accepted!;
      await tx
        .update(passkeys)
        .set({ counter: newCounter, backedUp, lastUsedAt: services.clock.date() })
        .where(and(inTenancy(passkeys, tenancy), eq(passkeys.id, passkey.id)));
      const user = await findUser(tx, project.id, branchId, passkey.userId);
      // The row cascades away with its user, and it is locked: the user is there.
      return completeSignIn(services, tx, project, user!, { isNewUser: false, ip });
    },
    async (tx, data) => {
      const checked = await checkAnswer(tx, project, tenancy, answer, data);
      if ("failure" in checked) return new KnownErrors.PasskeyAuthenticationFailed(checked.failure);
      accepted = checked;
      return null;
    },
  );
  return signedInOrMfaRequired(outcome);
}

async function checkAnswer(
  tx: Tx,
  project: ProjectRow,
  tenancy: Tenancy,
  answer: AuthenticationResponseJSON,
  data: AuthenticationCodeData,
): Promise<Accepted | { failure: string }> {
  const passkey = await lockPasskey(tx, tenancy, answer.id);
  if (!passkey) {
    return { failure: "Passkey not found. It may have been removed from this account, or it belongs to another project." };
  }
  const party = await relyingPartyOf(project.config, answer.response.clientDataJSON);
  if ("failure" in party) return party;
  const { origin, rpId, challenge } = party.relyingParty;
  if (challengeDigest(challenge) !== data.challenge_sha256) return { failure: CHALLENGE_MISMATCH };
  if (!sameUserHandle(answer.response.userHandle, passkey.userHandle)) {
    return { failure: "the authenticator names another user for this passkey than the one it was registered for" };
  }
  try {
    const result = await (
      await webauthn()
    ).verifyAuthenticationResponse({
      response: answer,
      expectedChallenge: (given) => challengeDigest(given) === data.challenge_sha256,
      expectedOrigin: origin,
      expectedRPID: rpId,
      expectedType: "webauthn.get",
      credential: {
        id: passkey.credentialId,
        publicKey: (await webauthnHelpers()).isoBase64URL.toBuffer(passkey.publicKey),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: false,
    });
    if (!result.verified) {
      return { failure: "the signature could not be verified with the public key stored for this passkey" };
    }
    const info = result.authenticationInfo;
    return { passkey, newCounter: info.newCounter, backedUp: info.credentialBackedUp };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    if (/counter/i.test(reason)) {
      return {
        failure: `the passkey's signature counter did not increase (${reason}); the authenticator may have been cloned. Remove this passkey and register a new one.`,
      };
    }
    return { failure: `the authenticator's answer could not be verified (${reason})` };
  }
}

/**
 * Whether the answer's user handle (optional; an empty one counts as absent)
 * names the passkey's user. Handles are bytes: they are compared decoded, so
 * a client that writes them in standard base64, or with padding, is accepted.
 */
function sameUserHandle(given: string | undefined, stored: string): boolean {
  if (given === undefined || given === "") return true;
  const givenBytes = base64Bytes(given);
  return givenBytes !== null && givenBytes.equals(Buffer.from(stored, "base64url"));
}

/** The bytes of base64 text in either alphabet, padded or not; null for anything else (Node would skip stray characters). */
function base64Bytes(text: string): Buffer | null {
  const unpadded = text.replace(/={1,2}$/, "");
  if (!/^[A-Za-z0-9+/_-]*$/.test(unpadded) || unpadded.length % 4 === 1) return null;
  if (unpadded.length !== text.length && text.length % 4 !== 0) return null;
  return Buffer.from(unpadded.replace(/\+/g, "-").replace(/\//g, "_"), "base64url");
}

/**
 * The passkey of this credential id, locked, with its user's row locked
 * first: the order removals take (passkeys.ts), so the two never wait on
 * each other in a circle.
 */
async function lockPasskey(tx: Tx, tenancy: Tenancy, credentialId: string): Promise<PasskeyRow | null> {
  const byCredential = and(inTenancy(passkeys, tenancy), eq(passkeys.credentialId, credentialId));
  const [found] = await tx.select({ userId: passkeys.userId }).from(passkeys).where(byCredential);
  if (!found) return null;
  await tx
    .select({ id: users.id })
    .from(users)
    .where(and(inTenancy(users, tenancy), eq(users.id, found.userId)))
    .for("update");
  const [passkey] = await tx.select().from(passkeys).where(byCredential).for("update");
  return passkey ?? null;
}
