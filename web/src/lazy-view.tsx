// A view in its own chunk: fetched the first time it is shown, then rendered like any other.
// While the chunk loads, a status line says so. When it cannot be fetched (the server is
// stopped or restarting, the network failed, or the server was updated and the old chunk is
// gone), the page says so, offers "Try again", and tries again by itself: as soon as the server
// answers, it loads the chunk again, or reloads the page when the chunk is gone for good (the
// view's state is in the URL, so nothing is lost).
import type { JSX } from 'preact';
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { Status } from './components';
import { RETRY_FIRST_MS } from './use-api';

/** True when the server answers at all (the page's own address, no key needed). */
async function serverAnswers(): Promise<boolean> {
  try {
    const response = await fetch(location.pathname, { method: 'HEAD', cache: 'no-store' });
    return response.ok;
  } catch {
    return false;
  }
}

type ViewComponent = (props: { params: URLSearchParams }) => JSX.Element;

export function lazyView(load: () => Promise<ViewComponent>): ViewComponent {
  let loaded: ViewComponent | undefined;
  let pending: Promise<ViewComponent> | undefined;
  return function LazyView({ params }: { params: URLSearchParams }) {
    const [, setReady] = useState(false);
    const [failures, setFailures] = useState(0);
    const [attempt, setAttempt] = useState(0);
    useLayoutEffect(() => {
      if (loaded !== undefined) return;
      pending ??= load().then((view) => (loaded = view));
      pending.then(
        () => setReady(true),
        () => {
          pending = undefined;
          setFailures((n) => n + 1);
        },
      );
    }, [attempt]);
    useEffect(() => {
      if (failures === 0 || loaded !== undefined) return;
      let stopped = false;
      const timer = setInterval(() => {
        void serverAnswers().then((up) => {
          if (!up || stopped) return;
          stopped = true;
          clearInterval(timer);
          // The server is back. A chunk that failed while it answered is gone (an update):
          // only a reload brings the new page. Otherwise the chunk is fetched again.
          if (failures > 1) location.reload();
          else setAttempt((n) => n + 1);
        });
      }, RETRY_FIRST_MS);
      return () => {
        stopped = true;
        clearInterval(timer);
      };
    }, [failures]);
    if (loaded !== undefined) {
      const View = loaded;
      return <View params={params} />;
    }
    if (failures > 0) {
      return (
        <div class="error" role="alert">
          <p>
            This view could not be fetched from the server: it may be stopped or restarting. The
            page tries again by itself every few seconds.
          </p>
          <button type="button" onClick={() => setAttempt((n) => n + 1)}>
            Try again
          </button>
        </div>
      );
    }
    return <Status loading>Loading…</Status>;
  };
}
