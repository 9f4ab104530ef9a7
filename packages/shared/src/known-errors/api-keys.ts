import { defineKnownError, defineKnownErrorFamily } from "./base.ts";

/** A key that exists but cannot be used any more. */
export const ApiKeyNotValid = defineKnownErrorFamily("ApiKeyNotValid");

export const ApiKeyExpired = defineKnownError("API_KEY_EXPIRED", 401, () => ({ message: "This API key has expired." }), ApiKeyNotValid);

export const ApiKeyRevoked = defineKnownError("API_KEY_REVOKED", 401, () => ({ message: "This API key was revoked." }), ApiKeyNotValid);

export const WrongApiKeyType = defineKnownError(
  "WRONG_API_KEY_TYPE",
  400,
  (expectedType: string, actualType: string) => ({
    message: `This is a ${actualType} API key, but a ${expectedType} API key was expected.`,
    details: { expected_type: expectedType, actual_type: actualType },
  }),
  ApiKeyNotValid,
);

export const ApiKeyNotFound = defineKnownError("API_KEY_NOT_FOUND", 404, () => ({ message: "API key not found." }), ApiKeyNotValid);

export const PublicApiKeyCannotBeRevoked = defineKnownError("PUBLIC_API_KEY_CANNOT_BE_REVOKED", 400, () => ({
  message: "Public API keys cannot be revoked with this endpoint.",
}));
