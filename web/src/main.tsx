// The page: header with the views, the key prompt when needed, and the view the URL names (D50).
import { render } from 'preact';
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { onUnauthorized } from './api';
import { CopyLink } from './components';
import { clearKey, getKey, takeKeyFromFragment } from './key';
import { KeyPrompt } from './key-prompt';
import { followLink, hrefFor, useParams } from './url-state';
import { InstancesView } from './views/instances';
import { lazyView } from './lazy-view';
import { StaleNotice } from './freshness';
import type { HealthReport } from './model';
import { placesAnswer, usePlaces } from './places';
import { HealthContext } from './provenance';
import { useApi } from './use-api';
import './styles.css';

// The instances view is the landing page and comes with the first script; every other view is
// its own chunk, fetched when it is first opened (less JavaScript to parse before the first
// paint: docs/web-ui.md, "Speed").
const CompareView = lazyView(() => import('./views/compare').then((m) => m.CompareView));
const InstancePage = lazyView(() => import('./views/instance-page').then((m) => m.InstancePage));
const RegionsView = lazyView(() => import('./views/regions').then((m) => m.RegionsView));
const RecommendView = lazyView(() => import('./views/recommend').then((m) => m.RecommendView));
const ChangesView = lazyView(() => import('./views/changes').then((m) => m.ChangesView));
const StatusView = lazyView(() => import('./views/status').then((m) => m.StatusView));

/** Filters Instances and Regions share: going from one to the other keeps them (Recommend: the cities). */
const SHARED_FILTERS = ['provider', 'city', 'instance_family', 'min_vcpu', 'min_memory_gb', 'q'];

function sharedFilters(params: URLSearchParams, from: string, to: string) {
  const places = ['instances', 'regions', 'recommend'];
  if (!places.includes(from) || !places.includes(to)) return {};
  // Recommend takes places (`city`, sent as `cities`), not the catalogue filters.
  const names = from === 'recommend' || to === 'recommend' ? ['city'] : SHARED_FILTERS;
  return Object.fromEntries(names.map((name) => [name, params.get(name) ?? undefined] as const));
}

interface ViewDef {
  readonly id: string;
  readonly label: string;
  readonly render: (params: URLSearchParams) => preact.JSX.Element;
  /** Reached from another view (a record, a selection), not from the menu. */
  readonly hidden?: boolean;
}

const VIEWS: readonly ViewDef[] = [
  { id: 'instances', label: 'Instances', render: (p) => <InstancesView params={p} /> },
  { id: 'compare', label: 'Compare', render: (p) => <CompareView params={p} /> },
  { id: 'instance', label: 'Instance', render: (p) => <InstancePage params={p} />, hidden: true },
  { id: 'regions', label: 'Regions', render: (p) => <RegionsView params={p} /> },
  { id: 'recommend', label: 'Recommend', render: (p) => <RecommendView params={p} /> },
  { id: 'changes', label: 'Changes', render: (p) => <ChangesView params={p} /> },
  { id: 'status', label: 'Status', render: (p) => <StatusView params={p} /> },
];

function App({ keyFromLink }: { keyFromLink: boolean }) {
  const params = useParams();
  const [hasKey, setHasKey] = useState(getKey() !== undefined);
  const [refused, setRefused] = useState<'link' | 'typed' | undefined>(undefined);
  const [fromLink, setFromLink] = useState(keyFromLink);
  const [generation, setGeneration] = useState(0);
  usePlaces(hasKey ? generation : undefined);
  // A layout effect: listening before any answer can arrive (the first requests start in the
  // views' layout effects; a plain effect may run only after a quick 401 came back).
  useLayoutEffect(
    () =>
      onUnauthorized(() => {
        clearKey();
        setRefused(fromLink ? 'link' : 'typed');
        setHasKey(false);
      }),
    [fromLink],
  );
  const view = VIEWS.find((v) => v.id === (params.get('view') ?? 'instances')) ?? VIEWS[0]!;
  useEffect(() => {
    document.title = `${view.label} · cloudprice`;
  }, [view]);

  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href={hrefFor({})} onClick={followLink}>
          cloudprice
        </a>
        <nav aria-label="Views">
          <ul>
            {VIEWS.filter((v) => v.hidden !== true).map((v) => (
              <li key={v.id}>
                <a
                  href={hrefFor({
                    ...sharedFilters(params, view.id, v.id),
                    view: v.id === 'instances' ? undefined : v.id,
                    // Compare opens on the rows selected in Instances.
                    ids:
                      v.id === 'compare'
                        ? (params.get('ids') ?? params.get('sel') ?? undefined)
                        : undefined,
                    // The currency follows the user from view to view.
                    currency: params.get('currency') ?? undefined,
                  })}
                  onClick={followLink}
                  aria-current={v.id === view.id ? 'page' : undefined}
                >
                  {v.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        {hasKey && (
          <div class="top-actions">
            <CopyLink key={params.toString()} />
            <button
              type="button"
              class="link-button"
              onClick={() => {
                clearKey();
                setRefused(undefined);
                setHasKey(false);
              }}
            >
              Change key
            </button>
          </div>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {hasKey ? (
          <Checked key={generation}>{view.render(params)}</Checked>
        ) : (
          <KeyPrompt
            refused={refused}
            onKey={() => {
              setRefused(undefined);
              setFromLink(false);
              setHasKey(true);
              setGeneration((n) => n + 1);
            }}
          />
        )}
      </main>
    </>
  );
}

/**
 * The view under the stale-price notice (D57). The view is mounted at once (its requests start)
 * but shown only when /health and the places have answered, so neither a notice that appears
 * nor a label that changes moves a painted view (a layout shift).
 */
function Checked({ children }: { children: preact.ComponentChildren }) {
  const health = useApi<HealthReport>('/health');
  // The names of providers and places (GET /regions) arrive beside /health; waiting for both
  // keeps a painted label from changing width when they come.
  const settled =
    (health.data !== undefined || health.error !== undefined) && !placesAnswer().loading;
  return (
    <HealthContext.Provider value={health}>
      <div hidden={!settled}>
        <StaleNotice health={health} />
        {children}
      </div>
    </HealthContext.Provider>
  );
}

const keyFromLink = takeKeyFromFragment();
render(<App keyFromLink={keyFromLink} />, document.getElementById('app')!);
