/**
 * The signed-in user as React state. The first read suspends (wrap the tree
 * in <Suspense>); later changes — sign-in, sign-out, profile updates — show
 * the previous user until the new one is read, then re-render.
 */
import type { CurrentUser, StackClientApp } from "@latchkey/js";
import { use, useSyncExternalStore } from "react";
import { useStackApp } from "./provider.tsx";

export interface UseUserOptions {
  /** When nobody is signed in: "return-null" (default), "redirect" to sign-in, "throw", or create an "anonymous" user. */
  or?: "redirect" | "throw" | "return-null" | "anonymous";
  /** Also return users who are restricted (e.g. e-mail not yet verified). */
  includeRestricted?: boolean;
}

type Loaded = { user: CurrentUser | null };

/** One kind of read of one app's user, shared by every component that asks for it. */
class UserStore {
  #loaded: Loaded | undefined;
  #first: Promise<Loaded> | null = null;
  #generation = 0;
  readonly #listeners = new Set<() => void>();

  constructor(
    private readonly app: StackClientApp,
    private readonly anonymous: boolean,
    private readonly includeRestricted: boolean,
  ) {
    app.onUserChange(() => void this.reload());
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getSnapshot = (): Loaded | undefined => this.#loaded;

  #redirecting = false;

  redirectToSignInOnce(): void {
    if (this.#redirecting) return;
    this.#redirecting = true;
    void this.app.redirectToSignIn().finally(() => {
      this.#redirecting = false;
    });
  }

  /** The first read, for suspending on: the same promise for the store's whole life, as React's use() expects. */
  firstLoad(): Promise<Loaded> {
    // A failed first read is forgotten, so the next render (e.g. after an
    // error boundary's retry) reads again instead of failing forever.
    this.#first ??= this.reload().catch((error: unknown) => {
      this.#first = null;
      throw error;
    });
    return this.#first;
  }

  reload(): Promise<Loaded> {
    const generation = ++this.#generation;
    const read = this.app
      .getUser({ or: this.anonymous ? "anonymous" : "return-null", includeRestricted: this.includeRestricted })
      .then((user) => ({ user }));
    void read.then(
      (loaded) => {
        // Only the latest read counts; an older one may predate a sign-out.
        if (generation !== this.#generation) return;
        this.#loaded = loaded;
        for (const listener of this.#listeners) listener();
      },
      () => {},
    );
    return read;
  }
}

const stores = new WeakMap<StackClientApp, Map<string, UserStore>>();

function storeFor(app: StackClientApp, anonymous: boolean, includeRestricted: boolean): UserStore {
  let byKind = stores.get(app);
  if (!byKind) stores.set(app, (byKind = new Map()));
  const key = `${anonymous}:${includeRestricted}`;
  let store = byKind.get(key);
  if (!store) byKind.set(key, (store = new UserStore(app, anonymous, includeRestricted)));
  return store;
}

const NEVER = new Promise<never>(() => {});

/**
 * What server rendering (and hydrating its HTML) sees: nobody's tokens are
 * known there, so the page renders signed out and the browser fills the user
 * in after hydration — the same HTML on both sides, no mismatch.
 */
const SERVER_SNAPSHOT: Loaded = { user: null };

const CLIENT_ONLY =
  "useUser({ or: 'redirect' | 'throw' | 'anonymous' }) runs in the browser only; on the server, the nearest <Suspense> shows its fallback and the browser renders the rest.";

export function useUser(options: UseUserOptions & { or: "redirect" | "throw" | "anonymous" }): CurrentUser;
export function useUser(options?: UseUserOptions): CurrentUser | null;
export function useUser(options: UseUserOptions = {}): CurrentUser | null {
  const app = useStackApp();
  const anonymous = options.or === "anonymous";
  const store = storeFor(app, anonymous, anonymous || options.includeRestricted === true);
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, () => SERVER_SNAPSHOT);
  if (snapshot === SERVER_SNAPSHOT) {
    // React's way to leave a Suspense boundary to the browser is an error thrown while server rendering.
    if (options.or !== undefined && options.or !== "return-null") throw new Error(CLIENT_ONLY);
    return null;
  }
  const first = use(store.firstLoad());
  const user = (snapshot ?? first).user;
  if (user === null) {
    if (options.or === "throw") throw new Error("User is not signed in but useUser was called with { or: 'throw' }");
    if (options.or === "redirect") {
      // A suspended render commits no effects, so the redirect starts here
      // (once); nothing further renders while the browser leaves.
      store.redirectToSignInOnce();
      use(NEVER);
    }
  }
  return user;
}
