/** Passkeys (WebAuthn): registering one for the signed-in user, signing in with one, and a user's list of them. */
export const passkeysEndpoints = {};
