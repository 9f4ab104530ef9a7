/**
 * Compiled (not run) by known-error-types.test.ts: each use below must type
 * check without casts, and each `@ts-expect-error` must really be an error.
 */
import {
  KnownError,
  KnownErrors,
  isKnownError,
  knownErrorFromJson,
  type AnyKnownError,
  type CodedKnownError,
  type KnownErrorCode,
} from "../../src/index.ts";

export function fromInstanceof(e: unknown): string {
  if (e instanceof KnownErrors.UserWithEmailAlreadyExists) {
    const email: string = e.details.email;
    const wouldWork: boolean = e.details.would_work_if_email_was_verified;
    // @ts-expect-error the details have no such key
    void e.details.user_id;
    return `${email} ${wouldWork}`;
  }
  if (e instanceof KnownErrors.EmailPasswordMismatch) {
    const none: undefined = e.details;
    const code: "EMAIL_PASSWORD_MISMATCH" = e.errorCode;
    return `${none} ${code}`;
  }
  if (e instanceof KnownErrors.AccessTokenExpired) {
    const at: number | null = e.details.expired_at_millis;
    return String(at);
  }
  return "";
}

export function rebuilt(json: unknown): string | undefined {
  const error = knownErrorFromJson(json);
  if (error instanceof KnownErrors.MultiFactorAuthenticationRequired) return error.details.attempt_code;
  return undefined;
}

export function bySwitch(e: unknown): string {
  if (!isKnownError(e)) return "not ours";
  switch (e.code) {
    case "USER_EMAIL_ALREADY_EXISTS":
      return e.details.email;
    case "PASSWORD_TOO_LONG":
      return String(e.details.maxLength satisfies number);
    case "USER_NOT_FOUND":
      return String(e.details satisfies undefined);
    default:
      return e.errorCode;
  }
}

export function byGuard(e: unknown): boolean | undefined {
  if (isKnownError(e, "CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE")) return e.details.would_work_if_email_was_verified;
  // @ts-expect-error not a code of the catalogue
  if (isKnownError(e, "NOT_A_CODE")) return true;
  return undefined;
}

export const someCode: KnownErrorCode = "INVALID_TOTP_CODE";
// @ts-expect-error the union is discriminated by code: a code carries only its own details
export const wrongDetails: AnyKnownError = new KnownError(400, "USER_NOT_FOUND", "x", { email: "a" }) as CodedKnownError<
  "USER_NOT_FOUND",
  { email: string }
>;

export function insideKnownError(e: unknown): string | undefined {
  if (!(e instanceof KnownError)) return undefined;
  if (e instanceof KnownErrors.UserIdDoesNotExist) return e.details.user_id;
  if (isKnownError(e, "PASSWORD_TOO_SHORT")) return String(e.details.min_length);
  return e.errorCode;
}

export function onTheUnion(e: AnyKnownError): string | undefined {
  if (e instanceof KnownErrors.RestrictedUserNotAllowed) return e.details.restricted_reason.type;
  if (e instanceof KnownErrors.PasswordRequirementsNotMet) return e.code;
  return undefined;
}
