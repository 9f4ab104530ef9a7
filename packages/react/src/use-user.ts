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
    this.#first ??= this.reload();
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

export function useUser(options: UseUserOptions & { or: "redirect" | "throw" | "anonymous" }): CurrentUser;
export function useUser(options?: UseUserOptions): CurrentUser | null;
export function useUser(options: UseUserOptions = {}): CurrentUser | null {
  const app = useStackApp();
  const anonymous = options.or === "anonymous";
  const store = storeFor(app, anonymous, anonymous || options.includeRestricted === true);
  const snapshot = useSyncExternalStore(store.subscribe, store.getSnapshot, () => undefined);
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
