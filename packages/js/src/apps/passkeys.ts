/**
 * Passkey ceremonies in the browser: the server's options, with its
 * relying-party placeholder replaced by this page's hostname, go to
 * `navigator.credentials` (through @simplewebauthn/browser, loaded only when
 * a passkey is used), and the authenticator's answer goes back with the
 * ceremony's code. Each returns a Result whose errors are the answers a user
 * can cause: the browser's refusal or a cancelled prompt
 * (PASSKEY_WEBAUTHN_ERROR, `details.code` the browser's error name), or the
 * server's (PASSKEY_REGISTRATION_FAILED, PASSKEY_AUTHENTICATION_FAILED).
 */
import { PASSKEY_RP_ID_SENTINEL } from "@latchkey/shared/constants";
import { KnownError, KnownErrors } from "@latchkey/shared/known-errors/index";
import type { AccessType, ApiClient } from "../interface/api-client.ts";
import type { CodeSignInJson } from "../models/json.ts";
import { Result } from "../result.ts";
import type { Session } from "../session/session.ts";
import { catchMfaRequired, type MfaRedirectContext } from "./credentials.ts";

export type PasskeyRegistrationError =
  InstanceType<typeof KnownErrors.PasskeyRegistrationFailed> | InstanceType<typeof KnownErrors.PasskeyWebAuthnError>;
export type PasskeySignInError =
  | InstanceType<typeof KnownErrors.PasskeyAuthenticationFailed>
  | InstanceType<typeof KnownErrors.InvalidTotpCode>
  | InstanceType<typeof KnownErrors.PasskeyWebAuthnError>;

export interface PasskeyRegistrationContext {
  api: ApiClient;
  accessType: AccessType;
  /** The signed-in user's session: the passkey is added to that user. */
  session: Session;
  /** The site the passkey is for (default: this page's hostname). */
  hostname?: string;
}

/**
 * Sign-in sends no session, like a password sign-in (credentials.ts): it
 * needs no user, and an anonymous or restricted app session would be refused
 * before the sign-in even started.
 */
export interface PasskeySignInContext extends MfaRedirectContext {
  api: ApiClient;
  accessType: AccessType;
}

/** Registers a passkey of this device (or the user's password manager) for the signed-in user. */
export function registerPasskey(ctx: PasskeyRegistrationContext): Promise<Result<undefined, PasskeyRegistrationError>> {
  const failed = (reason: string) => new KnownErrors.PasskeyRegistrationFailed(reason);
  return Result.of<undefined, PasskeyRegistrationError>(
    [KnownErrors.PasskeyRegistrationFailed, KnownErrors.PasskeyWebAuthnError],
    async () => {
      const caller = { accessType: ctx.accessType, session: ctx.session };
      const initiated = await orFailure(
        () => ctx.api.call("POST /auth/passkey/initiate-passkey-registration", { ...caller, body: {} }),
        (error) => failed(`the registration could not be started (${error.message})`),
      );
      const options = initiated.options_json;
      assertPlaceholder(options.rp.id);
      const { startRegistration } = await import("@simplewebauthn/browser");
      const optionsJSON = { ...options, rp: { ...options.rp, id: ctx.hostname ?? currentHostname() } } as unknown as Parameters<
        typeof startRegistration
      >[0]["optionsJSON"];
      const credential = await browserCeremony(() => startRegistration({ optionsJSON }), failed);
      await orFailure(
        () =>
          ctx.api.call("POST /auth/passkey/register", {
            ...caller,
            body: {
              credential: {
                ...credential,
                response: { ...credential.response },
                clientExtensionResults: { ...credential.clientExtensionResults },
              },
              code: initiated.code,
            },
          }),
        (error) => (error instanceof KnownErrors.VerificationCodeError ? failed(`${error.message} Try again.`) : null),
      );
      return undefined;
    },
  );
}

/** Signs in with a passkey the browser offers; a user with two-factor on is sent to the MFA page (like a password sign-in). */
export function signInWithPasskey(ctx: PasskeySignInContext): Promise<Result<CodeSignInJson, PasskeySignInError>> {
  const failed = (reason: string) => new KnownErrors.PasskeyAuthenticationFailed(reason);
  return Result.of<CodeSignInJson, PasskeySignInError>(
    [KnownErrors.PasskeyAuthenticationFailed, KnownErrors.InvalidTotpCode, KnownErrors.PasskeyWebAuthnError],
    async () => {
      const caller = { accessType: ctx.accessType };
      const initiated = await orFailure(
        () => ctx.api.call("POST /auth/passkey/initiate-passkey-authentication", { ...caller, body: {} }),
        (error) => failed(`the sign-in could not be started (${error.message})`),
      );
      assertPlaceholder(initiated.options_json.rpId);
      const { startAuthentication } = await import("@simplewebauthn/browser");
      const optionsJSON = { ...initiated.options_json, rpId: currentHostname() } as unknown as Parameters<
        typeof startAuthentication
      >[0]["optionsJSON"];
      const answer = await browserCeremony(() => startAuthentication({ optionsJSON }), failed);
      return orFailure(
        () =>
          catchMfaRequired(ctx, () =>
            ctx.api.call("POST /auth/passkey/sign-in", {
              ...caller,
              body: {
                authentication_response: {
                  ...answer,
                  response: { ...answer.response },
                  clientExtensionResults: { ...answer.clientExtensionResults },
                },
                code: initiated.code,
              },
            }),
          ),
        (error) => (error instanceof KnownErrors.VerificationCodeError ? failed(`${error.message} Try again.`) : null),
      );
    },
  );
}

/** The server always sends the placeholder; anything else means client and server disagree about the protocol. */
function assertPlaceholder(rpId: string | undefined): void {
  if (rpId !== PASSKEY_RP_ID_SENTINEL) {
    throw new Error(`The server sent the relying-party id ${JSON.stringify(rpId)} instead of ${PASSKEY_RP_ID_SENTINEL}.`);
  }
}

/** A passkey belongs to the site it was made on: this page's hostname. */
function currentHostname(): string {
  if (typeof window === "undefined" || !window.location?.hostname) {
    throw new Error("Passkeys work in a browser: there is no page whose hostname the passkey could belong to.");
  }
  return window.location.hostname;
}

/** Runs a call; a coded error that `convert` turns into one of the flow's errors is thrown as that, else as it is. */
async function orFailure<T>(call: () => Promise<T>, convert: (error: KnownError) => KnownError | null): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof KnownError) throw convert(error) ?? error;
    throw error;
  }
}

/** The browser's part: its refusals become PASSKEY_WEBAUTHN_ERROR (code = the error's name); other throws, the flow's failure. */
async function browserCeremony<T>(ceremony: () => Promise<T>, failed: (reason: string) => KnownError): Promise<T> {
  const { WebAuthnError } = await import("@simplewebauthn/browser");
  try {
    return await ceremony();
  } catch (error) {
    if (error instanceof WebAuthnError) throw new KnownErrors.PasskeyWebAuthnError(error.message, error.name);
    throw failed(`the browser could not run the passkey prompt (${error instanceof Error ? error.message : String(error)})`);
  }
}
