/**
 * The error catalogue (SPEC §8): one definition per code, grouped by area.
 * `KnownErrors.UserNotFound` etc. are classes both the server (throws) and the
 * SDK (rebuilds from responses with `knownErrorFromJson`) use.
 */
import * as apiKeys from "./api-keys.ts";
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

export * from "./base.ts";

export const KnownErrors = {
  ...general,
  ...projectAuthentication,
  ...session,
  ...users,
  ...project,
  ...credentials,
  ...verification,
  ...passkey,
  ...permissionsTeams,
  ...oauth,
  ...cli,
  ...apiKeys,
  ...email,
  ...payments,
  ...other,
};
