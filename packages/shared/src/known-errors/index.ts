/**
 * The error catalogue: one definition per code, grouped by area.
 * `KnownErrors.UserNotFound` etc. are classes both the server (throws) and the
 * SDK (rebuilds from responses with `knownErrorFromJson`) use.
 */
import * as aiChat from "./ai-chat.ts";
import * as apiKeys from "./api-keys.ts";
import * as botChallenge from "./bot-challenge.ts";
import * as cli from "./cli.ts";
import * as credentials from "./credentials.ts";
import * as email from "./email.ts";
import * as general from "./general.ts";
import * as oauth from "./oauth.ts";
import * as other from "./other.ts";
import * as passkey from "./passkey.ts";
import * as payments from "./payments.ts";
import * as permissionsTeams from "./permissions-teams.ts";
import * as project from "./project.ts";
import * as projectAuthentication from "./project-authentication.ts";
import * as session from "./session.ts";
import * as users from "./users.ts";
import * as verification from "./verification.ts";

import { KnownError, isCatalogueCode, type CodedKnownError, type KnownErrorClass } from "./base.ts";

export * from "./base.ts";
export * from "./status-errors.ts";

export const KnownErrors = {
  ...general,
  ...projectAuthentication,
  ...session,
  ...users,
  ...project,
  ...credentials,
  ...botChallenge,
  ...verification,
  ...passkey,
  ...permissionsTeams,
  ...oauth,
  ...cli,
  ...apiKeys,
  ...email,
  ...payments,
  ...other,
  ...aiChat,
};

type Catalogue = typeof KnownErrors;

/**
 * Any error of the catalogue, discriminated by `code`: after
 * `isKnownError(e)`, `switch (e.code)` narrows `e.details` to that code's shape.
 */
export type AnyKnownError = {
  [K in keyof Catalogue]: Catalogue[K] extends KnownErrorClass<never[], infer Code, infer Details> ? CodedKnownError<Code, Details> : never;
}[keyof Catalogue];

export type KnownErrorCode = AnyKnownError["code"];

/** The catalogue's error for one code, e.g. `KnownErrorOf<"USER_EMAIL_ALREADY_EXISTS">`. */
export type KnownErrorOf<Code extends KnownErrorCode> = Extract<AnyKnownError, { code: Code }>;

/**
 * Whether `error` is a catalogue error (of `code`, when given). Works on
 * errors thrown on the server and on errors the SDK rebuilt from a response.
 */
export function isKnownError(error: unknown): error is AnyKnownError;
export function isKnownError<Code extends KnownErrorCode>(error: unknown, code: Code): error is KnownErrorOf<Code>;
export function isKnownError(error: unknown, code?: string): boolean {
  if (!(error instanceof KnownError) || !isCatalogueCode(error.code)) return false;
  return code === undefined || error.code === code;
}
