/**
 * The users page's state as it lives in the URL query, so reload and shared
 * links show the same list: search, filters, order, page size, and the page
 * cursor with the cursors of the pages before it (for "Previous").
 */
import type { ExportUsersOptions, ListUsersOptions } from "@latchkey/js";

export type AnonymousFilter = "exclude" | "include" | "only";
export type UserSort = "signed_up" | "last_active";

export const PAGE_SIZES = [10, 25, 50, 100] as const;
const DEFAULT_SIZE = 25;
const MAX_SIZE = 100;

export interface UsersQuery {
  search: string;
  anonymous: AnonymousFilter;
  sort: UserSort;
  desc: boolean;
  size: number;
  /** The first user of the shown page; null: the first page. */
  cursor: string | null;
  /** The cursors of the pages before this one, oldest first ("" stands for the first page). */
  previous: string[];
}

export function readUsersQuery(params: URLSearchParams): UsersQuery {
  const anonymous = params.get("anonymous");
  const size = Number(params.get("size"));
  const previous = params.get("prev");
  return {
    search: params.get("q") ?? "",
    anonymous: anonymous === "include" || anonymous === "only" ? anonymous : "exclude",
    sort: params.get("sort") === "last_active" ? "last_active" : "signed_up",
    // Newest first unless the URL says otherwise: the people who just signed up are who an owner looks for.
    desc: params.get("dir") !== "asc",
    // A link may ask for any size the API serves; the page's menu offers the usual ones.
    size: Number.isInteger(size) && size >= 1 && size <= MAX_SIZE ? size : DEFAULT_SIZE,
    cursor: params.get("cursor") || null,
    previous: previous === null ? [] : previous.split(","),
  };
}

export function writeUsersQuery(query: UsersQuery): URLSearchParams {
  const params = new URLSearchParams();
  if (query.search) params.set("q", query.search);
  if (query.anonymous !== "exclude") params.set("anonymous", query.anonymous);
  if (query.sort !== "signed_up") params.set("sort", query.sort);
  if (!query.desc) params.set("dir", "asc");
  if (query.size !== DEFAULT_SIZE) params.set("size", String(query.size));
  if (query.cursor) params.set("cursor", query.cursor);
  if (query.previous.length > 0) params.set("prev", query.previous.join(","));
  return params;
}

/** A change of search, filter, order or size starts again at the first page. */
export function withFilters(query: UsersQuery, change: Partial<Omit<UsersQuery, "cursor" | "previous">>): UsersQuery {
  return { ...query, ...change, cursor: null, previous: [] };
}

export function nextPage(query: UsersQuery, nextCursor: string): UsersQuery {
  return { ...query, cursor: nextCursor, previous: [...query.previous, query.cursor ?? ""] };
}

export function previousPage(query: UsersQuery): UsersQuery {
  const previous = query.previous.slice(0, -1);
  return { ...query, cursor: query.previous.at(-1) || null, previous };
}

/** The filters and order of the list, as the SDK takes them (for both the list and its export). */
export function listFilters(query: UsersQuery): Omit<ExportUsersOptions, "format"> {
  return {
    orderBy: query.sort === "last_active" ? "lastActiveAt" : "signedUpAt",
    desc: query.desc,
    ...(query.search.trim() ? { query: query.search.trim() } : {}),
    includeAnonymous: query.anonymous !== "exclude",
    onlyAnonymous: query.anonymous === "only",
  };
}

export function listOptions(query: UsersQuery): ListUsersOptions {
  return { ...listFilters(query), limit: query.size, ...(query.cursor ? { cursor: query.cursor } : {}) };
}
