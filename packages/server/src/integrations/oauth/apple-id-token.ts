/**
 * Native Sign in with Apple: the app gets an ID token from the device and
 * sends it to us; it is checked with jose against Apple's published keys
 * (ServerConfig.appleJwksUrl, fetched and cached by jose's remote key set),
 * Apple's issuer, the project's bundle ids as audience, and its expiry.
 */
import { createRemoteJWKSet, errors, jwtVerify, type JWTPayload } from "jose";

export const APPLE_ISSUER = "https://appleid.apple.com";

/** One key set per URL: jose keeps the keys and fetches them again when a token names a key it does not know. */
const keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();

function keySet(jwksUrl: string) {
  let keys = keySets.get(jwksUrl);
  if (!keys) keySets.set(jwksUrl, (keys = createRemoteJWKSet(new URL(jwksUrl))));
  return keys;
}

/**
 * The token's claims, or null when it is not a valid Apple ID token for one of
 * `bundleIds` at `now`. A key set that cannot be fetched throws (the caller
 * answers that Apple is unavailable, not that the user's token is bad).
 */
export async function verifyAppleIdToken(
  jwksUrl: string,
  idToken: string,
  bundleIds: readonly string[],
  now: Date,
): Promise<JWTPayload | null> {
  try {
    const { payload } = await jwtVerify(idToken, keySet(jwksUrl), {
      issuer: APPLE_ISSUER,
      audience: [...bundleIds],
      algorithms: ["RS256", "ES256"],
      currentDate: now,
    });
    return payload;
  } catch (error) {
    if (error instanceof errors.JWKSTimeout || (error instanceof errors.JOSEError && error.code === "ERR_JWKS_INVALID")) throw error;
    if (error instanceof errors.JOSEError) return null;
    throw error;
  }
}
