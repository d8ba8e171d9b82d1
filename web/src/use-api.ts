// Loads one API answer per distinct request (path + body), keeping the last answer on screen
// while the next one loads, and dropping answers that arrive after a newer request was made.
import { useEffect, useRef, useState } from 'preact/hooks';
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
  useEffect(() => {
    if (path === null) {
      setState({ loading: false });
      return;
    }
    const id = ++latest.current;
    setState((previous) => ({ ...previous, loading: true }));
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
