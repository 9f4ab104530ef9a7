/**
 * One signed-in session on the client side: a refresh token and the latest
 * access token. It hands out an access token with enough life left, and
 * refreshes it when needed — once, however many calls are waiting.
 */
import { ACCESS_TOKEN_FRESHNESS_MILLIS } from "@latchkey/shared/constants";
import { accessTokenExpiresAt } from "./access-token.ts";

export interface Tokens {
  accessToken: string | null;
  refreshToken: string | null;
}

/**
 * Exchanges a refresh token for a new access token. Resolves null when the
 * server refuses the refresh token (the session is over); throws on failures
 * that say nothing about the token (network, server errors).
 */
export type Refresher = (refreshToken: string) => Promise<string | null>;

export class Session {
  #accessToken: string | null;
  #refreshToken: string | null;
  /** The refresh under way, and the refresh token it uses. */
  #refreshing: { refreshToken: string; promise: Promise<string | null> } | null = null;
  readonly #listeners = new Set<(tokens: Tokens) => void>();

  constructor(
    private readonly refresher: Refresher,
    tokens: Tokens,
    /** Reads Date.now at each call (not once, here), so a test that moves Date.now moves existing sessions too. */
    private readonly now: () => number = () => Date.now(),
  ) {
    this.#accessToken = tokens.accessToken;
    this.#refreshToken = tokens.refreshToken;
  }

  get tokens(): Tokens {
    return { accessToken: this.#accessToken, refreshToken: this.#refreshToken };
  }

  /** Whether there is anything to sign in with. */
  get isSignedOut(): boolean {
    return this.#accessToken === null && this.#refreshToken === null;
  }

  /**
   * An access token that lives at least `minMillisUntilExpiration` longer
   * (default 20 s), refreshing first if needed; null when signed out or the
   * refresh token was refused (both tokens are then cleared).
   */
  async getAccessToken(minMillisUntilExpiration = ACCESS_TOKEN_FRESHNESS_MILLIS): Promise<string | null> {
    const current = this.#accessToken;
    if (current !== null && accessTokenExpiresAt(current) - this.now() > minMillisUntilExpiration) return current;
    if (this.#refreshToken === null) return null;
    return this.refresh();
  }

  /** Refreshes now (joining a refresh already under way). */
  refresh(): Promise<string | null> {
    const refreshToken = this.#refreshToken;
    if (refreshToken === null) return Promise.resolve(null);
    // Join a refresh of this same refresh token; one for another (the session
    // switched meanwhile) says nothing about this one.
    if (this.#refreshing?.refreshToken === refreshToken) return this.#refreshing.promise;
    const promise = this.refresher(refreshToken)
      .then((accessToken) => {
        // Signed out or switched sessions meanwhile: this answer is stale.
        if (this.#refreshToken !== refreshToken) return this.getAccessToken();
        if (accessToken === null) this.clear();
        else this.set({ accessToken, refreshToken });
        return accessToken;
      })
      .finally(() => {
        if (this.#refreshing?.promise === promise) this.#refreshing = null;
      });
    this.#refreshing = { refreshToken, promise };
    return promise;
  }

  /** The server said this access token is not usable: forget it so the next call refreshes. */
  markAccessTokenExpired(accessToken: string): void {
    if (this.#accessToken === accessToken) this.set({ accessToken: null, refreshToken: this.#refreshToken });
  }

  set(tokens: Tokens): void {
    if (tokens.accessToken === this.#accessToken && tokens.refreshToken === this.#refreshToken) return;
    this.#accessToken = tokens.accessToken;
    this.#refreshToken = tokens.refreshToken;
    for (const listener of this.#listeners) listener(this.tokens);
  }

  clear(): void {
    this.set({ accessToken: null, refreshToken: null });
  }

  /** Called with the new tokens after every change; returns the unsubscribe function. */
  onChange(listener: (tokens: Tokens) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}
