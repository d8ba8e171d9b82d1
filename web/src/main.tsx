// The page: header with the views, the key prompt when needed, and the view the URL names (D50).
import { render } from 'preact';
import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { onUnauthorized } from './api';
import { CopyLink, Status } from './components';
import { clearKey, getKey, keyFromOtherTab, takeKeyFromFragment } from './key';
import { KeyPrompt } from './key-prompt';
import { followLink, hrefFor, useParams } from './url-state';
import { InstancesView } from './views/instances';
import { lazyView } from './lazy-view';
import { StaleNotice } from './freshness';
import { knownCurrency, type HealthReport } from './model';
import { ALL_OPTIONS, knownPurchaseOption } from './purchase-options';
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
  const carried = Object.fromEntries(
    names.map((name) => [name, params.get(name) ?? undefined] as const),
  );
  // Regions compares cities: one city is no comparison (every row would be its own cheapest,
  // spread 0%), so a single city chosen elsewhere is not carried there; two or more are.
  if (to === 'regions' && carried['city'] !== undefined && !carried['city'].includes(',')) {
    delete carried['city'];
  }
  return carried;
}

/** Each view's last query in this tab, so the menu brings a view back as it was left. */
const LAST_VIEWS = 'cloudprice.lastViews';

function lastViews(): Record<string, string> {
  try {
    const stored: unknown = JSON.parse(sessionStorage.getItem(LAST_VIEWS) ?? '{}');
    return typeof stored === 'object' && stored !== null ? (stored as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function rememberView(view: string, params: URLSearchParams): void {
  const views = lastViews();
  const kept = new URLSearchParams(params);
  kept.delete('view');
  views[view] = kept.toString();
  try {
    sessionStorage.setItem(LAST_VIEWS, JSON.stringify(views));
  } catch {
    // Storage full or refused: the menu then opens views fresh, as before.
  }
}

/**
 * The views that price by a purchase option (D61), which the menu carries between them. Changes
 * takes its own (it may be `all`, which prices nothing), kept only in its own URL; Status none.
 */
const OPTION_VIEWS = ['instances', 'compare', 'instance', 'regions', 'recommend'];

/** The view does not know the URL's option: it shows on-demand and the page says so. */
function unknownOption(view: string, asked: string | null): boolean {
  if (asked === null || knownPurchaseOption(asked) !== undefined) return false;
  return OPTION_VIEWS.includes(view) || (view === 'changes' && asked !== ALL_OPTIONS);
}

/**
 * The purchase option a menu link carries: the current one between views that price by it;
 * into such a view from one that does not (Changes, Status), the one it was left with. Changes
 * comes back with its own, never another view's.
 */
function carriedOption(params: URLSearchParams, from: string, to: string, last?: string) {
  if (to === 'changes') return from === to ? (params.get('purchase_option') ?? undefined) : last;
  if (!OPTION_VIEWS.includes(to)) return undefined;
  return OPTION_VIEWS.includes(from) ? (params.get('purchase_option') ?? undefined) : last;
}

/**
 * The menu's link to view `to` from `from`: `to` as this tab last left it, then the filters
 * the two views share as they are now, and the currency, which follows the user everywhere,
 * and the purchase option, which follows them through the views that price by it.
 */
function menuHref(params: URLSearchParams, from: string, to: string): string {
  const last = from === to ? {} : Object.fromEntries(new URLSearchParams(lastViews()[to] ?? ''));
  return hrefFor({
    ...last,
    ...sharedFilters(params, from, to),
    view: to === 'instances' ? undefined : to,
    // Compare opens on the rows selected in Instances.
    ids: to === 'compare' ? (params.get('ids') ?? params.get('sel') ?? last['ids']) : last['ids'],
    currency: params.get('currency') ?? undefined,
    purchase_option: carriedOption(params, from, to, last['purchase_option']),
  });
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
  // A new tab without a key asks the page's other tabs before asking the person (key.ts).
  const [asking, setAsking] = useState(!hasKey);
  useEffect(() => {
    if (!asking) return;
    void keyFromOtherTab().then((key) => {
      setAsking(false);
      if (key !== undefined) setHasKey(true);
    });
  }, []);
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
    // The instance page names its record in the title itself (instance-page.tsx).
    if (view.id !== 'instance') document.title = `${view.label} · cloudprice`;
  }, [view]);
  const search = params.toString();
  useEffect(() => {
    rememberView(view.id, new URLSearchParams(search));
  }, [view, search]);

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
                  href={menuHref(params, view.id, v.id)}
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
        {hasKey &&
          params.get('currency') !== null &&
          knownCurrency(params.get('currency')) === undefined && (
            <p class="note" role="status">
              The link asks for prices in “{params.get('currency')!.slice(0, 12)}”, a currency this
              server does not convert to; prices are shown in USD. Pick another currency from the
              Currency menu.
            </p>
          )}
        {hasKey && unknownOption(view.id, params.get('purchase_option')) && (
          <p class="note" role="status">
            The link asks for the purchase option “{params.get('purchase_option')!.slice(0, 20)}”,
            which this server does not know; on-demand prices are shown. Pick another from the
            Purchase option menu.
          </p>
        )}
        {hasKey ? (
          <Checked key={generation}>{view.render(params)}</Checked>
        ) : asking ? (
          <Status loading>Loading…</Status>
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
