// The whole of /changes for a few queries (one per kind), each read to its last page with the
// cursor. /changes lists oldest first, one kind or all, with no total; the Changes view wants
// price changes newest first with a total, and additions counted per sync, so it reads each
// kind's items in the window and orders and counts them. A kind's reading stops after
// MAX_PAGES pages (then `complete` is false and counts read "at least").
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { apiJson } from '../api';
import type { ChangeItem, ChangesData } from '../model';

export const FEED_PAGE_SIZE = 500;
export const MAX_PAGES = 20;

export interface WholeFeed {
  readonly items: readonly ChangeItem[] | undefined;
  /** False when some kind had more than MAX_PAGES pages. */
  readonly complete: boolean;
  readonly error: unknown;
  readonly loading: boolean;
  readonly reload: () => void;
}

async function readAll(query: string): Promise<{ items: ChangeItem[]; complete: boolean }> {
  const items: ChangeItem[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const path: string = `/changes?${query}${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const answer: ChangesData = await apiJson<ChangesData>(path);
    items.push(...answer.changes);
    cursor = answer.next_cursor;
    if (cursor === null) return { items, complete: true };
  }
  return { items, complete: false };
}

/** Every item of each query (`limit` is set here); a newer set of queries drops older answers. */
export function useWholeFeed(queries: readonly string[]): WholeFeed {
  const [state, setState] = useState<{
    items?: ChangeItem[];
    complete: boolean;
    error?: unknown;
    loading: boolean;
  }>({ complete: true, loading: queries.length > 0 });
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(0);
  const key = queries.join('\n');
  useLayoutEffect(() => {
    const id = ++latest.current;
    if (key === '') {
      setState({ items: [], complete: true, loading: false });
      return;
    }
    setState((previous) => ({ ...previous, error: undefined, loading: true }));
    Promise.all(key.split('\n').map((q) => readAll(`${q}&limit=${FEED_PAGE_SIZE}`)))
      .then((answers) => {
        if (id !== latest.current) return;
        setState({
          items: answers.flatMap((a) => a.items),
          complete: answers.every((a) => a.complete),
          loading: false,
        });
      })
      .catch((error: unknown) => {
        if (id === latest.current) setState((previous) => ({ ...previous, error, loading: false }));
      });
  }, [key, attempt]);
  return {
    ...state,
    items: state.items,
    error: state.error,
    reload: () => setAttempt((n) => n + 1),
  };
}
