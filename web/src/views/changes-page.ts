// One page of GET /changes by page number, over the feed's cursors. Each page's answer gives the
// cursor of the next, kept here per query for the session, so Next and Previous are one request
// each. A link to page n whose cursor is not known yet (a shared URL) reads pages 1..n once to
// learn it, and lands on the last page when the feed has fewer.
import { useLayoutEffect, useState } from 'preact/hooks';
import type { ChangesData } from '../model';
import { useApi } from '../use-api';

/** Per query (its URL query string): cursors[i] starts page i + 2. */
const CURSORS = new Map<string, string[]>();

export interface ChangesPage {
  readonly data: ChangesData | undefined;
  /** The page `data` is (the one asked for, unless the feed ends before it). */
  readonly page: number;
  readonly error: unknown;
  readonly loading: boolean;
  readonly reload: () => void;
}

/** Page `page` of `/changes?<query>`; nothing is asked while `query` is undefined. */
export function useChangesPage(query: string | undefined, page: number): ChangesPage {
  const [, learned] = useState(0);
  const key = query ?? '';
  const known = CURSORS.get(key) ?? [];
  const reached = Math.min(page, known.length + 1);
  const cursor = reached === 1 ? undefined : known[reached - 2];
  const loaded = useApi<ChangesData>(
    query === undefined
      ? null
      : `/changes?${query}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`,
  );
  const next = loaded.loading ? undefined : loaded.data?.next_cursor;
  useLayoutEffect(() => {
    if (typeof next !== 'string') return;
    known[reached - 1] = next;
    CURSORS.set(key, known);
    if (reached < page) learned((n) => n + 1);
  }, [next, key, reached, page]);
  const walking = reached < page && typeof next === 'string';
  return {
    data: loaded.data,
    page: reached,
    error: loaded.error,
    loading: loaded.loading || walking,
    reload: loaded.reload,
  };
}
