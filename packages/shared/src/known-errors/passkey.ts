import { defineKnownError } from "./base.ts";

export const PasskeyRegistrationFailed = defineKnownError("PASSKEY_REGISTRATION_FAILED", 400, (message: string) => ({
  message: `Passkey registration failed: ${message}`,
}));

export const PasskeyWebauthnError = defineKnownError("PASSKEY_WEBAUTHN_ERROR", 400, (message: string, code: string) => ({
  message: `The browser's passkey (WebAuthn) ceremony failed (${code}): ${message}`,
  details: { message, code },
}));
/** The spelling the official SDKs use. */
export const PasskeyWebAuthnError = PasskeyWebauthnError;

export const PasskeyAuthenticationFailed = defineKnownError("PASSKEY_AUTHENTICATION_FAILED", 400, (message: string) => ({
  message: `Passkey authentication failed: ${message}`,
}));
