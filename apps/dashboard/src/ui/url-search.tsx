/** A list's search by name or id, kept in the URL (`?q=`) so a reload or a shared link shows the same results. */
import { useSearchParams } from "react-router";

export interface UrlSearch {
  query: string;
  setQuery: (query: string) => void;
  /** Whether an item with these names and ids matches (everything does while the search is empty). */
  matches: (...texts: string[]) => boolean;
}

export function useUrlSearch(): UrlSearch {
  const [params, setParams] = useSearchParams();
  const query = params.get("q") ?? "";
  const q = query.trim().toLowerCase();
  return {
    query,
    setQuery: (next) => setParams(next ? { q: next } : {}, { replace: true }),
    matches: (...texts) => !q || texts.some((text) => text.toLowerCase().includes(q)),
  };
}

export function SearchField({ label, search }: { label: string; search: UrlSearch }) {
  return (
    <label className="search">
      <span className="visually-hidden">{label}</span>
      <input
        className="input"
        type="search"
        placeholder="Search by name or id"
        value={search.query}
        onChange={(e) => search.setQuery(e.target.value)}
      />
    </label>
  );
}
