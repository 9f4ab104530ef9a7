/**
 * A software authenticator for tests: it answers WebAuthn options the way a
 * browser and a platform authenticator would (a real P-256 key pair, real
 * authenticator data and "none" attestation in CBOR, real signatures), so
 * the server's verification runs for real without a browser. Each
 * ceremony's origin is given explicitly, and a test may bend one part of
 * an answer (the relying-party id, the counter) to see it refused.
 */
import { createHash, createPublicKey, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;

export interface StoredCredential {
  id: string;
  privateKey: KeyObject;
  cosePublicKey: Uint8Array;
  userHandle: string;
  rpId: string;
  counter: number;
}

/** What the server's options_json holds, as far as an authenticator reads it. */
export interface RegistrationOptions {
  challenge: string;
  rp: { id: string; name: string };
  user: { id: string; name: string; displayName: string };
  excludeCredentials?: { id: string }[];
}
export interface AuthenticationOptions {
  challenge: string;
  rpId: string;
}

export interface CeremonyTweaks {
  /** The relying-party id signed into the authenticator data (default: the origin's hostname). */
  rpId?: string;
  /** The signature counter to report (default: one more than last time, from 1). */
  counter?: number;
  /** Put in the client data instead of the options' challenge. */
  challenge?: string;
}

export interface RegistrationTweaks extends CeremonyTweaks {
  /** Register this credential (its id and key) again instead of making a new one. */
  reuse?: StoredCredential;
}

export class SoftwareAuthenticator {
  readonly credentials: StoredCredential[] = [];

  /** navigator.credentials.create() on a page at `origin`: a new key pair, and its registration answer. */
  register(options: RegistrationOptions, origin: string, tweaks: RegistrationTweaks = {}) {
    const rpId = tweaks.rpId ?? new URL(origin).hostname;
    const { privateKey, publicKey } = tweaks.reuse
      ? { privateKey: tweaks.reuse.privateKey, publicKey: createPublicKey(tweaks.reuse.privateKey) }
      : generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const cosePublicKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, "base64url")],
        [-3, Buffer.from(jwk.y!, "base64url")],
      ]),
    );
    const credentialId = tweaks.reuse ? Buffer.from(tweaks.reuse.id, "base64url") : randomBytes(16);
    const credential: StoredCredential = {
      id: credentialId.toString("base64url"),
      privateKey,
      cosePublicKey,
      userHandle: options.user.id,
      rpId,
      counter: tweaks.counter ?? 0,
    };
    const attested = Buffer.concat([Buffer.alloc(16), u16(credentialId.length), credentialId, cosePublicKey]);
    const authData = authenticatorData(
      rpId,
      FLAG_USER_PRESENT | FLAG_USER_VERIFIED | FLAG_ATTESTED_CREDENTIAL,
      credential.counter,
      attested,
    );
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, never>>([
        ["fmt", "none"],
        ["attStmt", new Map<string, never>()],
        ["authData", authData],
      ]),
    );
    this.credentials.push(credential);
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON: clientData("webauthn.create", tweaks.challenge ?? options.challenge, origin),
        attestationObject: Buffer.from(attestationObject).toString("base64url"),
        transports: ["internal"],
      },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get() on a page at `origin`, answered with `credential` (default: the last one made). */
  authenticate(options: AuthenticationOptions, origin: string, tweaks: CeremonyTweaks = {}, credential = this.credentials.at(-1)!) {
    const rpId = tweaks.rpId ?? new URL(origin).hostname;
    credential.counter = tweaks.counter ?? credential.counter + 1;
    const authData = authenticatorData(rpId, FLAG_USER_PRESENT | FLAG_USER_VERIFIED, credential.counter);
    const clientDataJSON = clientData("webauthn.get", tweaks.challenge ?? options.challenge, origin);
    const clientDataHash = createHash("sha256").update(Buffer.from(clientDataJSON, "base64url")).digest();
    // ES256 signatures travel DER-encoded, as node:crypto makes them.
    const signature = sign("sha256", Buffer.concat([authData, clientDataHash]), credential.privateKey);
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key",
      authenticatorAttachment: "platform",
      response: {
        clientDataJSON,
        authenticatorData: authData.toString("base64url"),
        signature: signature.toString("base64url"),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}

function authenticatorData(rpId: string, flags: number, counter: number, attested = Buffer.alloc(0)): Buffer {
  const rpIdHash = createHash("sha256").update(rpId).digest();
  const count = Buffer.alloc(4);
  count.writeUInt32BE(counter);
  return Buffer.concat([rpIdHash, Buffer.from([flags]), count, attested]);
}

function clientData(type: string, challenge: string, origin: string): string {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false })).toString("base64url");
}

function u16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeUInt16BE(value);
  return buffer;
}
