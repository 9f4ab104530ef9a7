/**
 * A list read a page at a time (the management API's `iterator` and `done`): the first page as a `Load`, and a
 * "Load more" that adds the next. A reload reads the first page again and drops the pages after it, which
 * may have shifted under it (a new attempt moves every older one down).
 */
import { useMemo, useState } from "react";
import { useAction, type Action } from "../../lib/use-action.ts";
import { useLoad, type Load } from "../../lib/use-load.ts";
import { ActionStatus } from "../../ui/states.tsx";
import type { ListPage } from "./webhooks-api.ts";

export type PagedLoad<T> = Load<T[]> & { done: boolean; more: Action<[]> };

export function usePagedLoad<T>(read: (iterator: string | null) => Promise<ListPage<T>>, deps: readonly unknown[]): PagedLoad<T> {
  const first = useLoad(() => read(null), deps);
  // The pages read after the first, with the first they follow: once it is read again, they are not shown.
  const [after, setAfter] = useState<{ first: ListPage<T>; pages: ListPage<T>[] } | null>(null);
  const pages = useMemo(() => (first.data ? [first.data, ...(after?.first === first.data ? after.pages : [])] : []), [first.data, after]);
  const data = useMemo(() => (first.data ? pages.flatMap((page) => page.data) : undefined), [first.data, pages]);
  const last = pages.at(-1);
  const more = useAction(async () => {
    if (!first.data || !last || last.done) return;
    const from = first.data;
    const next = await read(last.iterator);
    setAfter((current) => ({ first: from, pages: [...(current?.first === from ? current.pages : []), next] }));
  });
  return { ...first, data, done: last?.done ?? true, more } as PagedLoad<T>;
}

/** The button under a paged list, while there is more to read. */
export function LoadMore({ list }: { list: PagedLoad<unknown> }) {
  if (list.done) return null;
  return (
    <div className="webhook-load-more">
      <button
        type="button"
        className="button button-secondary button-small"
        disabled={list.more.pending}
        onClick={() => void list.more.run()}
      >
        {list.more.pending ? "Loading…" : "Load more"}
      </button>
      <ActionStatus error={list.more.error} />
    </div>
  );
}
