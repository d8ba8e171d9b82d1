// A view in its own chunk: fetched the first time it is shown, then rendered like any other.
// While the chunk loads, a status line says so; when it cannot be fetched (the server was
// updated and the old chunk is gone, or the network failed), the page says to reload.
import type { JSX } from 'preact';
import { useLayoutEffect, useState } from 'preact/hooks';
import { Status } from './components';

type ViewComponent = (props: { params: URLSearchParams }) => JSX.Element;

export function lazyView(load: () => Promise<ViewComponent>): ViewComponent {
  let loaded: ViewComponent | undefined;
  let pending: Promise<ViewComponent> | undefined;
  return function LazyView({ params }: { params: URLSearchParams }) {
    const [, setReady] = useState(false);
    const [failed, setFailed] = useState(false);
    useLayoutEffect(() => {
      if (loaded !== undefined) return;
      pending ??= load().then((view) => (loaded = view));
      pending.then(
        () => setReady(true),
        () => {
          pending = undefined;
          setFailed(true);
        },
      );
    }, []);
    if (loaded !== undefined) {
      const View = loaded;
      return <View params={params} />;
    }
    if (failed) {
      return (
        <p class="error" role="alert">
          This view could not be loaded (the server may have been updated). Reload the page to try
          again.
        </p>
      );
    }
    return <Status loading>Loading…</Status>;
  };
}
