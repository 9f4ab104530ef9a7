/** Signing a command-line tool in through the browser: the CLI asks and polls, a signed-in user confirms. */
export const cliAuthEndpoints = {};
