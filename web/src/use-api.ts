// Loads one API answer per distinct request (path + body), keeping the last answer on screen
// while the next one loads, and dropping answers that arrive after a newer request was made.
// Requests start in a layout effect: right after the DOM is committed, before the browser lays
// out and paints it, instead of one frame later (useEffect waits for the next animation frame),
// so the first data is on its way while the page's frame is being painted.
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { apiJson } from './api';

export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: unknown;
  readonly loading: boolean;
  readonly reload: () => void;
}

export function useApi<T>(path: string | null, body?: unknown): Loaded<T> {
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
    apiJson<T>(path, bodyText === undefined ? undefined : JSON.parse(bodyText))
      .then((data) => {
        if (id === latest.current) setState({ data, loading: false });
      })
      .catch((error: unknown) => {
        if (id === latest.current)
          setState((previous) => ({ data: previous.data, error, loading: false }));
      });
  }, [path, bodyText, attempt]);
  return { ...state, data: state.data, error: state.error, reload: () => setAttempt((n) => n + 1) };
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
