/**
 * Passkeys (WebAuthn): registering one for the signed-in user, signing in
 * with one, and a user's list of them.
 *
 * A ceremony has two steps. `initiate-*` answers with the options the
 * browser hands to `navigator.credentials` (`options_json`, with the
 * relying-party id set to PASSKEY_RP_ID_SENTINEL, which the client replaces
 * with its own hostname) and a code that stands for the challenge; the
 * second step sends the authenticator's answer with that code. The server
 * takes the expected origin from the answer's client data and accepts it
 * only on one of the project's trusted domains (or localhost, when allowed).
 *
 * Listing, renaming and removing passkeys are Latchkey's own endpoints.
 */
import { z } from "zod";
import { DISPLAY_NAME_MAX_LENGTH } from "../constants.ts";
import { KnownErrors } from "../known-errors/index.ts";
import { userIdOrMeSchema, uuidSchema, verificationCodeSchema } from "../schema-fields.ts";
import { codeSignInJson } from "./auth.ts";
import { defineEndpoint } from "./endpoint.ts";
import { listJson, successJson } from "./json.ts";

/**
 * The WebAuthn options, as the browser library takes them. Only the parts a
 * client touches are spelled out; the rest is passed along as it is.
 */
export const passkeyRegistrationOptionsJson = z.looseObject({
  rp: z.looseObject({ id: z.string(), name: z.string() }),
  user: z.looseObject({ id: z.string(), name: z.string(), displayName: z.string() }),
  challenge: z.string(),
});
export const passkeyAuthenticationOptionsJson = z.looseObject({
  rpId: z.string(),
  challenge: z.string(),
});

export const passkeyRegistrationInitiatedJson = z.strictObject({ options_json: passkeyRegistrationOptionsJson, code: z.string() });
export type PasskeyRegistrationInitiatedJson = z.infer<typeof passkeyRegistrationInitiatedJson>;
export const passkeyAuthenticationInitiatedJson = z.strictObject({ options_json: passkeyAuthenticationOptionsJson, code: z.string() });
export type PasskeyAuthenticationInitiatedJson = z.infer<typeof passkeyAuthenticationInitiatedJson>;

/** What `navigator.credentials.create()` answered, base64url-encoded (the browser library's RegistrationResponseJSON). */
export const passkeyRegistrationResponseSchema = z.looseObject({
  id: z.string(),
  rawId: z.string(),
  type: z.string(),
  response: z.looseObject({
    clientDataJSON: z.string(),
    attestationObject: z.string(),
    transports: z.array(z.string()).optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});

/** What `navigator.credentials.get()` answered (the browser library's AuthenticationResponseJSON). */
export const passkeyAuthenticationResponseSchema = z.looseObject({
  id: z.string(),
  rawId: z.string(),
  type: z.string(),
  response: z.looseObject({
    clientDataJSON: z.string(),
    authenticatorData: z.string(),
    signature: z.string(),
    userHandle: z.string().optional(),
  }),
  clientExtensionResults: z.record(z.string(), z.unknown()),
});

export const passkeyRegisterBody = z.strictObject({ credential: passkeyRegistrationResponseSchema, code: verificationCodeSchema });
export type PasskeyRegisterBody = z.input<typeof passkeyRegisterBody>;
/** `user_handle` is the new credential's id (as the official API answers). */
export const passkeyRegisteredJson = z.strictObject({ user_handle: z.string() });

export const passkeySignInBody = z.strictObject({
  authentication_response: passkeyAuthenticationResponseSchema,
  code: verificationCodeSchema,
});
export type PasskeySignInBody = z.input<typeof passkeySignInBody>;

/** One of a user's passkeys. */
export const passkeyJson = z.strictObject({
  id: z.string(),
  user_id: z.string(),
  display_name: z.string(),
  created_at_millis: z.number(),
  last_used_at_millis: z.number().nullable(),
  /** "singleDevice" (bound to one authenticator) or "multiDevice" (synced, e.g. by a password manager). */
  device_type: z.string(),
  /** Whether the authenticator says the passkey is backed up (synced). */
  backed_up: z.boolean(),
});
export type PasskeyJson = z.infer<typeof passkeyJson>;

export const passkeyPatchBody = z.strictObject({
  display_name: z.string().trim().min(1).max(DISPLAY_NAME_MAX_LENGTH),
});
export type PasskeyPatchBody = z.input<typeof passkeyPatchBody>;

const ALL = ["client", "server", "admin"] as const;
const TAGS = ["Passkeys"];
const CODE_ERRORS = [
  KnownErrors.VerificationCodeNotFound,
  KnownErrors.VerificationCodeExpired,
  KnownErrors.VerificationCodeAlreadyUsed,
  KnownErrors.VerificationCodeMaxAttemptsReached,
] as const;
/** Naming a user (`me` or an id) that is not there. */
const USER_ERRORS = [KnownErrors.CannotGetOwnUserWithoutUser, KnownErrors.UserIdDoesNotExist] as const;
const passkeyParams = z.strictObject({ user_id: userIdOrMeSchema, passkey_id: uuidSchema });

export const passkeysEndpoints = {
  initiatePasskeyRegistration: defineEndpoint({
    method: "POST",
    path: "/auth/passkey/initiate-passkey-registration",
    summary: "Start registering a passkey for the signed-in user",
    tags: TAGS,
    access: ALL,
    user: "required",
    body: z.strictObject({}).optional(),
    response: passkeyRegistrationInitiatedJson,
    errors: [KnownErrors.PasskeyAuthenticationNotEnabled],
  }),
  registerPasskey: defineEndpoint({
    method: "POST",
    path: "/auth/passkey/register",
    summary: "Finish registering a passkey with the authenticator's answer",
    tags: TAGS,
    access: ALL,
    user: "required",
    body: passkeyRegisterBody,
    response: passkeyRegisteredJson,
    errors: [KnownErrors.PasskeyAuthenticationNotEnabled, KnownErrors.PasskeyRegistrationFailed, ...CODE_ERRORS],
  }),
  initiatePasskeyAuthentication: defineEndpoint({
    method: "POST",
    path: "/auth/passkey/initiate-passkey-authentication",
    summary: "Start signing in with a passkey",
    tags: TAGS,
    access: ALL,
    body: z.strictObject({}).optional(),
    response: passkeyAuthenticationInitiatedJson,
    errors: [KnownErrors.PasskeyAuthenticationNotEnabled],
  }),
  passkeySignIn: defineEndpoint({
    method: "POST",
    path: "/auth/passkey/sign-in",
    summary: "Sign in with the authenticator's answer",
    tags: TAGS,
    access: ALL,
    body: passkeySignInBody,
    response: codeSignInJson,
    errors: [
      KnownErrors.PasskeyAuthenticationNotEnabled,
      KnownErrors.PasskeyAuthenticationFailed,
      KnownErrors.MultiFactorAuthenticationRequired,
      ...CODE_ERRORS,
    ],
  }),
  listPasskeys: defineEndpoint({
    method: "GET",
    path: "/passkeys",
    summary: "List a user's passkeys, oldest first",
    tags: TAGS,
    access: ALL,
    query: z.strictObject({ user_id: userIdOrMeSchema }),
    response: listJson(passkeyJson),
    errors: USER_ERRORS,
  }),
  updatePasskey: defineEndpoint({
    method: "PATCH",
    path: "/passkeys/:user_id/:passkey_id",
    summary: "Rename one of a user's passkeys",
    tags: TAGS,
    access: ALL,
    params: passkeyParams,
    body: passkeyPatchBody,
    response: passkeyJson,
    errors: USER_ERRORS,
  }),
  deletePasskey: defineEndpoint({
    method: "DELETE",
    path: "/passkeys/:user_id/:passkey_id",
    summary: "Remove one of a user's passkeys",
    tags: TAGS,
    access: ALL,
    params: passkeyParams,
    response: successJson,
    errors: USER_ERRORS,
  }),
};
