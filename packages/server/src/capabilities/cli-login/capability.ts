/**
 * CLI login: a command-line tool is signed in through the browser. The CLI
 * starts a login (POST /auth/cli) and polls (/auth/cli/poll); a signed-in
 * user opens its link and confirms (/auth/cli/complete).
 *
 * Outside this folder: the wire schemas (`cliAuthEndpoints`) and the known
 * errors are in @latchkey/shared (api/cli-auth.ts, known-errors/cli.ts); the
 * SDK's calls in @latchkey/js (apps/cli-login.ts); the confirmation page in
 * @latchkey/react (components/cli-auth-confirmation.tsx); its table's
 * migrations in db/migrations/, with everyone else's.
 */
import { cliAuthEndpoints } from "@latchkey/shared";
import { defineCapability } from "../define.ts";
import { deleteLongExpired } from "./domain/attempts.ts";
import { cliAuthAttempts } from "./schema.ts";

export default defineCapability({
  name: "cli-login",
  contract: cliAuthEndpoints,
  tables: [cliAuthAttempts],
  // Nothing to follow: a confirmed session that ended since is found out when the CLI polls (domain/poll.ts).
  events: { subscribes: [] },
  // Completing a login refuses a user who must still verify their e-mail address (domain/complete.ts).
  configKeys: ["onboarding.requireEmailVerification"],
  // Starting a login also sweeps a batch (domain/start.ts); this covers quiet times.
  housekeeping: [{ name: "expiredCliLogins", sweep: deleteLongExpired }],
  jobs: [],
});
