// One page of GET /changes by page number, over the feed's cursors. Each page's answer gives the
// cursor of the next, kept here per query for the session, so Next and Previous are one request
// each. A link to page n whose cursor is not known yet (a shared URL) reads pages 1..n once to
// learn it, and lands on the last page when the feed has fewer.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { apiJson } from '../api';
import type { ChangesData } from '../model';

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
  const key = query ?? '';
  const known = CURSORS.get(key) ?? [];
  const reached = Math.min(page, known.length + 1);
  const cursor = reached === 1 ? undefined : known[reached - 2];
  const path =
    query === undefined
      ? null
      : `/changes?${query}${cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
  // The answer with the path it answers: while the next page loads the last one stays on
  // screen, but only an answer to this very path gives the cursor of the page after it.
  const [state, setState] = useState<{ path?: string; data?: ChangesData; error?: unknown }>({});
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(0);
  useLayoutEffect(() => {
    const id = ++latest.current;
    if (path === null) return;
    setState((previous) =>
      previous.error === undefined ? previous : { ...previous, error: undefined },
    );
    apiJson<ChangesData>(path)
      .then((data) => {
        if (id === latest.current) setState({ path, data });
      })
      .catch((error: unknown) => {
        if (id === latest.current) setState((previous) => ({ ...previous, error }));
      });
  }, [path, attempt]);
  const next = state.path === path ? state.data?.next_cursor : undefined;
  const [, learned] = useState(0);
  useLayoutEffect(() => {
    if (typeof next !== 'string') return;
    known[reached - 1] = next;
    CURSORS.set(key, known);
    if (reached < page) learned((n) => n + 1);
  }, [next, key, reached, page]);
  const walking = reached < page && typeof next === 'string';
  return {
    data: state.data,
    page: reached,
    error: state.error,
    loading: path !== null && state.error === undefined && (state.path !== path || walking),
    reload: () => setAttempt((n) => n + 1),
  };
}
