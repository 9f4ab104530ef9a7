/**
 * `user.getConnectedAccount` as a hook: the user's connection to `provider`
 * whose access token has `scopes`, read from the SDK's cache (shared with
 * the SDK's own calls). Without one: null, an error thrown to the nearest
 * error boundary (`or: "throw"`), or the provider's page to connect one and
 * come back here (`or: "redirect"`).
 */
import type { CurrentUser, GetConnectedAccountOptions, OAuthConnection } from "@latchkey/js";
import { use, useMemo } from "react";
import { useCacheEntry } from "./use-cache-entry.ts";

export function useConnectedAccount(
  user: CurrentUser,
  provider: string,
  options: GetConnectedAccountOptions & { or: "redirect" | "throw" },
): OAuthConnection;
export function useConnectedAccount(user: CurrentUser, provider: string, options?: GetConnectedAccountOptions): OAuthConnection | null;
export function useConnectedAccount(user: CurrentUser, provider: string, options: GetConnectedAccountOptions = {}): OAuthConnection | null {
  const scopes = options.scopes ?? [];
  const scopeKey = scopes.join(" ");
  const token = useCacheEntry(user._connectedAccessTokenEntry(provider, scopes));
  // Keyed by the scopes' text, not the array, which callers often write inline (a new one each render).
  const connection = useMemo(
    () => (token ? user._oauthConnection(provider, scopeKey ? scopeKey.split(" ") : []) : null),
    [token, user, provider, scopeKey],
  );
  if (connection || !options.or || options.or === "return-null") return connection;
  // Redirecting never settles (the browser leaves) and throwing rejects: either way, use() of the one call per
  // user, provider and scopes, so that renders while it is under way meet the same promise, as use() expects.
  return use(noConnectionOnce(user, provider, scopeKey, options));
}

const noConnectionCalls = new WeakMap<CurrentUser, Map<string, Promise<null>>>();

function noConnectionOnce(user: CurrentUser, provider: string, scopeKey: string, options: GetConnectedAccountOptions): Promise<null> {
  let calls = noConnectionCalls.get(user);
  if (!calls) noConnectionCalls.set(user, (calls = new Map()));
  const key = `${options.or} ${provider} ${scopeKey}`;
  let call = calls.get(key);
  if (!call) calls.set(key, (call = user._noConnection(provider, options)));
  return call;
}
