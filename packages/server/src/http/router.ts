/**
 * Hono's trie router, with the answers for paths that have no parameters
 * remembered: those are most requests (`/users/me`, the refresh), and a
 * remembered answer saves splitting and walking the path every time.
 * Only registered static paths are remembered, so the memory is bounded by
 * the route table, not by what clients send.
 */
import type { Result, Router } from "hono/router";
import { TrieRouter } from "hono/router/trie-router";

export class StaticMemoRouter<T> implements Router<T> {
  readonly name = "StaticMemoRouter";
  readonly #trie = new TrieRouter<T>();
  readonly #staticPaths = new Set<string>();
  /** method → path → the trie's answer; filled on first match, after which routes can no longer change. */
  readonly #memo = new Map<string, Map<string, Result<T>>>();

  add(method: string, path: string, handler: T): void {
    if (this.#memo.size > 0) throw new Error("Routes cannot be added after the first request.");
    if (!/[:*?]/.test(path)) this.#staticPaths.add(path);
    this.#trie.add(method, path, handler);
  }

  match(method: string, path: string): Result<T> {
    if (!this.#staticPaths.has(path)) return this.#trie.match(method, path);
    let byPath = this.#memo.get(method);
    if (!byPath) this.#memo.set(method, (byPath = new Map()));
    let result = byPath.get(path);
    if (!result) byPath.set(path, (result = this.#trie.match(method, path)));
    return result;
  }
}
