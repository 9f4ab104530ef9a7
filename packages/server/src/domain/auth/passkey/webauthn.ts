/**
 * @simplewebauthn/server, loaded by the first passkey ceremony instead of at
 * start: with the certificate and ASN.1 parsers it brings, it is the largest
 * part of the server's start-up evaluation (BENCHMARKS.md, footprint), and a
 * project may never use passkeys. The runtime keeps the loaded module, so
 * only the first ceremony waits for it.
 */
export const webauthn = () => import("@simplewebauthn/server");
export const webauthnHelpers = () => import("@simplewebauthn/server/helpers");
