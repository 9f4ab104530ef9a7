/**
 * Request headers by their short name: `x-stack-<name>`, or the newer
 * `x-hexclave-<name>` alias (WIRE §1.1); the x-stack form wins when both come.
 */
export function stackHeader(headers: Headers, name: string): string | null {
  return headers.get(`x-stack-${name}`) ?? headers.get(`x-hexclave-${name}`);
}

export const STACK_REQUEST_HEADERS = [
  "access-type",
  "project-id",
  "branch-id",
  "publishable-client-key",
  "secret-server-key",
  "super-secret-admin-key",
  "admin-access-token",
  "access-token",
  "refresh-token",
  "allow-anonymous-user",
  "allow-restricted-user",
  "client-version",
  "random-nonce",
  "workflow-token",
  "override-error-status",
] as const;
