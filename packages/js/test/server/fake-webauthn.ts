/**
 * A browser's WebAuthn, as far as @simplewebauthn/browser reaches it
 * (`window.location`, `PublicKeyCredential`, `navigator.credentials`), in
 * Node: the server tests' software authenticator answers, on a page at
 * `origin`, for the relying-party id the SDK put in the options, as a
 * browser would. `refuse` makes the next ceremony fail the way a cancelled
 * prompt does.
 */
import { SoftwareAuthenticator } from "../../../server/test/passkey-authenticator.ts";

export interface FakeWebAuthn {
  authenticator: SoftwareAuthenticator;
  /** The relying-party ids the page asked for, in order. */
  requestedRpIds: string[];
  /** The next ceremony throws a DOMException of this name. */
  refuseNext(name: string): void;
  uninstall(): void;
}

const base64url = (buffer: ArrayBuffer | ArrayBufferView) =>
  Buffer.from(
    buffer instanceof ArrayBuffer ? buffer : buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength),
  ).toString("base64url");
const bytes = (text: string) => new Uint8Array(Buffer.from(text, "base64url")).buffer;

const GLOBALS = ["window", "PublicKeyCredential", "navigator"] as const;

export function installFakeWebAuthn(origin: string): FakeWebAuthn {
  const authenticator = new SoftwareAuthenticator();
  const requestedRpIds: string[] = [];
  let refusal: string | null = null;
  const take = () => {
    if (refusal === null) return;
    const name = refusal;
    refusal = null;
    throw new DOMException("The operation either timed out or was not allowed.", name);
  };
  const credentials = {
    async create({ publicKey }: { publicKey: any }) {
      requestedRpIds.push(publicKey.rp.id);
      take();
      const answer = authenticator.register(
        {
          challenge: base64url(publicKey.challenge),
          rp: publicKey.rp,
          user: { ...publicKey.user, id: base64url(publicKey.user.id) },
        },
        origin,
        { rpId: publicKey.rp.id },
      );
      return {
        id: answer.id,
        rawId: bytes(answer.rawId),
        type: answer.type,
        authenticatorAttachment: answer.authenticatorAttachment,
        response: {
          clientDataJSON: bytes(answer.response.clientDataJSON),
          attestationObject: bytes(answer.response.attestationObject),
          getTransports: () => answer.response.transports,
        },
        getClientExtensionResults: () => ({}),
      };
    },
    async get({ publicKey }: { publicKey: any }) {
      requestedRpIds.push(publicKey.rpId);
      take();
      const answer = authenticator.authenticate({ challenge: base64url(publicKey.challenge), rpId: publicKey.rpId }, origin, {
        rpId: publicKey.rpId,
      });
      return {
        id: answer.id,
        rawId: bytes(answer.rawId),
        type: answer.type,
        authenticatorAttachment: answer.authenticatorAttachment,
        response: {
          clientDataJSON: bytes(answer.response.clientDataJSON),
          authenticatorData: bytes(answer.response.authenticatorData),
          signature: bytes(answer.response.signature),
          userHandle: bytes(answer.response.userHandle),
        },
        getClientExtensionResults: () => ({}),
      };
    },
  };
  const globals = globalThis as Record<string, unknown>;
  const saved = Object.fromEntries(GLOBALS.map((name) => [name, Object.getOwnPropertyDescriptor(globalThis, name)]));
  const define = (name: string, value: unknown) => Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
  define("window", { location: new URL(`${origin}/handler/sign-in`) });
  define("PublicKeyCredential", class PublicKeyCredential {});
  define("navigator", { ...(globals.navigator as object | undefined), credentials });
  return {
    authenticator,
    requestedRpIds,
    refuseNext(name) {
      refusal = name;
    },
    uninstall() {
      for (const name of GLOBALS) {
        const descriptor = saved[name];
        if (descriptor) Object.defineProperty(globalThis, name, descriptor);
        else delete globals[name];
      }
    },
  };
}
