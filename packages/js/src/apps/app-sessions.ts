/**
 * Which session a call uses: the app's own (on its token store, kept in
 * sync both ways), or one per set of tokens passed to the call.
 */
import { Session, type Refresher, type Tokens } from "../session/session.ts";
import { isRequestLike, tokensOfRequest } from "../session/request-tokens.ts";
import { CookieTokenStore, MemoryTokenStore, type TokenStore, type TokenStoreInit } from "../session/token-store.ts";

/** Sessions made from explicit tokens kept at most (they are cheap to make again). */
const EXPLICIT_SESSIONS_MAX = 100;

export class AppSessions {
  #default: Session | null = null;
  readonly #explicit = new Map<string, Session>();

  constructor(
    private readonly projectId: string,
    private readonly init: TokenStoreInit | null,
    private readonly refresher: Refresher,
    /** Called when who is signed in on a session (the app's own, or one of given tokens) may have changed. */
    private readonly onSessionChange: (session: Session) => void,
  ) {}

  /** The session of the given tokens, or of the app's own token store. */
  sessionFor(tokenStore?: TokenStoreInit | null): Session {
    const init = tokenStore ?? this.init;
    if (init === null || init === undefined) {
      throw new Error("This app has no token store: pass { tokenStore } to this call (e.g. the user's tokens).");
    }
    if (typeof init === "object") return this.explicit(init);
    if (tokenStore !== undefined && tokenStore !== this.init) {
      throw new Error(`This app keeps its tokens in "${String(this.init)}"; it cannot read them from "${tokenStore}".`);
    }
    this.#default ??= this.onStore(init === "cookie" ? new CookieTokenStore(this.projectId) : new MemoryTokenStore());
    return this.#default;
  }

  private explicit(init: object): Session {
    let tokens: Tokens;
    if (isTokenPair(init)) tokens = init;
    else if (isRequestLike(init)) tokens = tokensOfRequest(init, this.projectId);
    else {
      throw new Error(
        "A tokenStore object must be { accessToken, refreshToken } (strings or null), or a request (a Fetch Request or a Node IncomingMessage).",
      );
    }
    const key = `${tokens.refreshToken ?? ""}|${tokens.accessToken ?? ""}`;
    let session = this.#explicit.get(key);
    if (!session) {
      if (this.#explicit.size >= EXPLICIT_SESSIONS_MAX) this.#explicit.clear();
      session = new Session(this.refresher, { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken });
      this.watchSignIns(session);
      this.#explicit.set(key, session);
    }
    return session;
  }

  private onStore(store: TokenStore): Session {
    const session = new Session(this.refresher, store.read());
    session.onChange((tokens) => store.write(tokens));
    this.watchSignIns(session);
    store.subscribe((tokens) => session.set(tokens));
    return session;
  }

  private watchSignIns(session: Session): void {
    let refreshToken = session.tokens.refreshToken;
    session.onChange((tokens) => {
      // A new access token for the same session is not a new user.
      if (tokens.refreshToken !== refreshToken) {
        refreshToken = tokens.refreshToken;
        this.onSessionChange(session);
      }
    });
  }
}

function isTokenPair(value: object): value is Tokens {
  const { accessToken, refreshToken } = value as Partial<Tokens>;
  const ok = (token: unknown) => token === null || typeof token === "string";
  return "accessToken" in value && "refreshToken" in value && ok(accessToken) && ok(refreshToken);
}
