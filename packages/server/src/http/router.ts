/**
 * Hono's trie router, with the answers for paths that have no parameters
 * remembered: those are most requests (`/users/me`, the refresh), and a
 * remembered answer saves splitting and walking the path every time. It
 * assumes what every route of this app does: a handler always answers, so
 * of several matches only the first (the most specific, registered first) runs.
 * Only registered static paths with a route for the method are remembered,
 * so the memory is bounded by the route table, not by what clients send.
 */
import type { Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";

export class StaticMemoRouter<T> implements Router<T> {
  readonly name = "StaticMemoRouter";
  readonly #trie = new TrieRouter<T>();
  readonly #staticPaths = new Set<string>();
  /** method → path → the trie's answer when it found a route; after the first match routes can no longer change. */
  readonly #memo = new Map<string, Map<string, Result<T>>>();

  #matched = false;

  add(method: string, path: string, handler: T): void {
    if (this.#matched) throw new Error("Routes cannot be added after the first request.");
    if (!/[:*?]/.test(path)) this.#staticPaths.add(path);
    this.#trie.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    this.#matched = true;
    if (!this.#staticPaths.has(path)) return this.#trie.match(method, path);
    const remembered = this.#memo.get(method)?.get(path);
    if (remembered) return remembered;
    let result = this.#trie.match(method, path);
    // "/users/me" also matches "/users/:user_id". Every route here answers
    // and never hands on to the next, so the first match is the whole answer
    // — and a single handler lets Hono skip composing a chain.
    if (result[0].length > 1) result = [[result[0][0]!]] as unknown as Result<T>;
    // Only answers that found a route are kept: the memo stays bounded by the
    // routes themselves, whatever methods clients send.
    if (result[0].length > 0) {
      let byPath = this.#memo.get(method);
      if (!byPath) {
        byPath = new Map();
        this.#memo.set(method, byPath);
      }
      byPath.set(path, result);
    }
    return result;
  }
}
