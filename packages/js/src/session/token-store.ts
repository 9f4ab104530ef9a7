/**
 * Where a client app keeps its tokens between calls: in memory, in browser
 * cookies (fixed names and lifetimes; other tabs' changes are picked up),
 * or given explicitly per call (a server handling a request for a user).
 */
import { ACCESS_COOKIE_MAX_AGE_SECONDS, REFRESH_COOKIE_MAX_AGE_SECONDS } from "@latchkey/shared/constants";
import { readCookies, writeCookie } from "./cookies.ts";
import type { RequestLike } from "./request-tokens.ts";
import type { Tokens } from "./session.ts";

/**
 * "memory", "cookie", the tokens themselves, or — on a backend — the
 * incoming request (a Fetch `Request` or Node `IncomingMessage`), whose
 * tokens are read as request-tokens.ts says.
 */
export type TokenStoreInit = "memory" | "cookie" | { accessToken: string | null; refreshToken: string | null } | RequestLike;

export const ACCESS_COOKIE_NAME = "stack-access";

export function refreshCookieNameOf(projectId: string): string {
  return `stack-refresh-${projectId}`;
}

export interface TokenStore {
  read(): Tokens;
  write(tokens: Tokens): void;
  /** Changes made outside this store (another tab); returns the unsubscribe function. */
  subscribe(listener: (tokens: Tokens) => void): () => void;
}

export class MemoryTokenStore implements TokenStore {
  #tokens: Tokens;

  constructor(tokens: Tokens = { accessToken: null, refreshToken: null }) {
    this.#tokens = tokens;
  }

  read(): Tokens {
    return this.#tokens;
  }

  write(tokens: Tokens): void {
    this.#tokens = tokens;
  }

  subscribe(): () => void {
    return () => {};
  }
}

/** How often the cookie store looks for changes made by other tabs. */
export const COOKIE_POLL_MILLIS = 100;

/**
 * Cookies `stack-refresh-<projectId>` (the refresh token, one year) and
 * `stack-access` (`["<refresh token>", "<access token>"]`, one day; an access
 * token is only used with the refresh token it was issued beside).
 */
export class CookieTokenStore implements TokenStore {
  readonly refreshCookieName: string;
  readonly accessCookieName = ACCESS_COOKIE_NAME;

  constructor(projectId: string) {
    this.refreshCookieName = refreshCookieNameOf(projectId);
  }

  read(): Tokens {
    const cookies = readCookies();
    const refreshToken = cookies[this.refreshCookieName] ?? null;
    let accessToken: string | null = null;
    try {
      const pair = JSON.parse(cookies[this.accessCookieName] ?? "null") as unknown;
      if (Array.isArray(pair) && pair[0] === refreshToken && typeof pair[1] === "string") accessToken = pair[1];
    } catch {
      // Unreadable: as if absent.
    }
    return { accessToken, refreshToken };
  }

  write(tokens: Tokens): void {
    writeCookie(this.refreshCookieName, tokens.refreshToken, REFRESH_COOKIE_MAX_AGE_SECONDS);
    writeCookie(
      this.accessCookieName,
      tokens.refreshToken && tokens.accessToken ? JSON.stringify([tokens.refreshToken, tokens.accessToken]) : null,
      ACCESS_COOKIE_MAX_AGE_SECONDS,
    );
  }

  subscribe(listener: (tokens: Tokens) => void): () => void {
    if (typeof document === "undefined") return () => {};
    let last = JSON.stringify(this.read());
    const timer = setInterval(() => {
      const tokens = this.read();
      const now = JSON.stringify(tokens);
      if (now !== last) {
        last = now;
        listener(tokens);
      }
    }, COOKIE_POLL_MILLIS);
    return () => clearInterval(timer);
  }
}
