import { defineKnownError } from "./base.ts";

export const InvalidPollingCode = defineKnownError("INVALID_POLLING_CODE", 400, () => ({
  message: "The polling code is not valid. Start the CLI login again.",
}));

export const CliAuthError = defineKnownError("CLI_AUTH_ERROR", 400, (message: string) => ({ message }));

export const CliAuthExpiredError = defineKnownError("CLI_AUTH_EXPIRED_ERROR", 400, () => ({
  message: "CLI authentication request expired. Please try again.",
}));

export const CliAuthUsedError = defineKnownError("CLI_AUTH_USED_ERROR", 400, () => ({
  message: "This authentication token has already been used.",
}));
