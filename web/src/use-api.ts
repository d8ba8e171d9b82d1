// Loads one API answer per distinct request (path + body), keeping the last answer on screen
// while the next one loads, and dropping answers that arrive after a newer request was made.
// Requests start in a layout effect: right after the DOM is committed, before the browser lays
// out and paints it, instead of one frame later (useEffect waits for the next animation frame),
// so the first data is on its way while the page's frame is being painted.
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { apiJson, ApiError } from './api';

/**
 * The server did not answer, or answered that it is down or restarting: asking again later can
 * succeed without the user doing anything. Bad input, a refused key or a rate limit cannot.
 */
export function recoverable(error: unknown): boolean {
  return (
    error instanceof ApiError && (error.status === 0 || [502, 503, 504].includes(error.status))
  );
}

/** First wait before asking again by itself, doubled on each failure up to RETRY_MAX_MS. */
export const RETRY_FIRST_MS = 2_000;
const RETRY_MAX_MS = 15_000;

/**
 * Calls `reload` after a growing wait while `error` is one the server can recover from, and at
 * once when the browser comes back online or the tab is shown again: a view recovers by itself
 * when the server returns (issue 36), as well as by its "Try again".
 */
export function useRecovery(error: unknown, reload: () => void): void {
  const failures = useRef(0);
  const retry = useRef(reload);
  retry.current = reload;
  const waiting = recoverable(error);
  useEffect(() => {
    if (!waiting) {
      failures.current = 0;
      return;
    }
    const wait = Math.min(RETRY_FIRST_MS * 2 ** failures.current, RETRY_MAX_MS);
    failures.current += 1;
    const again = () => retry.current();
    const timer = setTimeout(again, wait);
    const onVisible = () => {
      if (document.visibilityState === 'visible') again();
    };
    addEventListener('online', again);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearTimeout(timer);
      removeEventListener('online', again);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [waiting, error]);
}

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: unknown;
  readonly loading: boolean;
  readonly reload: () => void;
}

export function useApi<T>(
  path: string | null,
  body?: unknown,
  /** How the answer is read: its `data` (the default), or e.g. `apiAnswer` for `meta` too. */
  read: (path: string, body?: unknown) => Promise<T> = apiJson,
): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: unknown; loading: boolean }>({
    loading: path !== null,
  });
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(0);
  const bodyText = body === undefined ? undefined : JSON.stringify(body);
  useLayoutEffect(() => {
    if (path === null) {
      setState({ loading: false });
      return;
    }
    const id = ++latest.current;
    setState((previous) => (previous.loading ? previous : { ...previous, loading: true }));
    read(path, bodyText === undefined ? undefined : JSON.parse(bodyText))
      .then((data) => {
        if (id === latest.current) setState({ data, loading: false });
      })
      .catch((error: unknown) => {
        if (id === latest.current)
          setState((previous) => ({ data: previous.data, error, loading: false }));
      });
  }, [path, bodyText, attempt]);
  const reload = () => setAttempt((n) => n + 1);
  useRecovery(state.error, reload);
  return { ...state, data: state.data, error: state.error, reload };
}

export type Settled<T> = { readonly data: T } | { readonly error: unknown };
export interface LoadedEach<T> {
  /** One result per path, in order; undefined until the first answers arrive. */
  readonly results: readonly Settled<T>[] | undefined;
  readonly loading: boolean;
  readonly reload: () => void;
}

/** Several GETs, each answering on its own (a comparison shows the records that still exist). */
export function useApiEach<T>(paths: readonly string[]): LoadedEach<T> {
  const [state, setState] = useState<{ results?: Settled<T>[]; loading: boolean }>({
    loading: paths.length > 0,
  });
  const [attempt, setAttempt] = useState(0);
  const latest = useRef(0);
  const key = paths.join('\n');
  useLayoutEffect(() => {
    const id = ++latest.current;
    if (key === '') {
      setState({ results: [], loading: false });
      return;
    }
    setState((previous) => (previous.loading ? previous : { ...previous, loading: true }));
    void Promise.all(
      key.split('\n').map((path) =>
        apiJson<T>(path).then(
          (data): Settled<T> => ({ data }),
          (error: unknown): Settled<T> => ({ error }),
        ),
      ),
    ).then((results) => {
      if (id === latest.current) setState({ results, loading: false });
    });
  }, [key, attempt]);
  return { results: state.results, loading: state.loading, reload: () => setAttempt((n) => n + 1) };
}
