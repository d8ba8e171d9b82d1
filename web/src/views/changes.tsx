// Changes: what syncs changed (GET /changes, D40). It opens on price changes, rises and drops,
// newest first with their total; additions, removals and returns come on request (`show=all`),
// one line per sync and kind. Filters and the page are in the URL (D50); `kind` (one kind) still
// narrows to that kind, as older links expect.
import { ErrorMessage, Link, Status } from '../components';
import { count, dateTime, money, percent } from '../format';
import { CHANGE_KIND_LABEL, CHANGE_KINDS, type ChangeItem } from '../model';
import { cityName, providerLabel, regionLabel, regions } from '../places';
import { navigate } from '../url-state';
import { useWholeFeed } from './changes-feed';
import { MEMBERSHIP_KINDS, MembershipChanges } from './changes-membership';
import { displayOf } from './instances';
import { FilterForm, Pager, providerOptions, SelectField } from './table-parts';
import './changes.css';

const FILTER_PARAMS = ['provider', 'region', 'since', 'until'] as const;
const PRICE_KINDS = ['price_increased', 'price_decreased'] as const;
export const CHANGES_PAGE_SIZE = 50;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** The API's default window when `since` is not given (D40). */
const DEFAULT_WINDOW_DAYS = 7;

/** The kinds the URL asks for: one `kind`, or price changes plus, with `show=all`, the rest. */
export function changeKinds(params: URLSearchParams): string[] {
  const kind = params.get('kind') ?? '';
  if ((CHANGE_KINDS as readonly string[]).includes(kind)) return [kind];
  return params.get('show') === 'all' ? [...PRICE_KINDS, ...MEMBERSHIP_KINDS] : [...PRICE_KINDS];
}

/** The Kind menu's value: '' (price changes), 'all', or one kind. */
function kindChoice(params: URLSearchParams): string {
  const kind = params.get('kind') ?? '';
  if ((CHANGE_KINDS as readonly string[]).includes(kind)) return kind;
  return params.get('show') === 'all' ? 'all' : '';
}

/** One /changes query per kind for the URL's state (paging is the feed reader's). */
export function changesQueries(params: URLSearchParams): string[] {
  const base = new URLSearchParams();
  for (const name of FILTER_PARAMS) {
    const value = params.get(name);
    if (value !== null && value !== '') base.set(name, value);
  }
  const currency = displayOf(params).currency;
  if (currency !== 'USD') base.set('currency', currency);
  return changeKinds(params).map((kind) => {
    const query = new URLSearchParams(base);
    query.set('kind', kind);
    return query.toString();
  });
}

/** Changing a filter starts again at the first page. */
function setFilter(name: string, value: string): void {
  navigate({ [name]: value, page: undefined });
}

/** Newest first: by time, then by feed id (a sync's items share their time). */
function newestFirst(a: ChangeItem, b: ChangeItem): number {
  return a.at === b.at ? b.id - a.id : a.at < b.at ? 1 : -1;
}

function windowText(params: URLSearchParams): string {
  const since = params.get('since') ?? '';
  const until = params.get('until') ?? '';
  const from = DATE.test(since) ? `from ${since}` : `in the last ${DEFAULT_WINDOW_DAYS} days`;
  return DATE.test(until) ? `${from} until ${until}` : from;
}

export function ChangesView({ params }: { params: URLSearchParams }) {
  const kinds = changeKinds(params);
  const feed = useWholeFeed(changesQueries(params));
  const items = feed.items ?? [];
  const priceChanges = items
    .filter((c) => (PRICE_KINDS as readonly string[]).includes(c.kind))
    .sort(newestFirst);
  const membership = items.filter((c) => (MEMBERSHIP_KINDS as readonly string[]).includes(c.kind));
  const showsPrices = kinds.some((k) => (PRICE_KINDS as readonly string[]).includes(k));
  const showsMembership = kinds.some((k) => (MEMBERSHIP_KINDS as readonly string[]).includes(k));
  const currency = displayOf(params).currency;
  const get = (name: string) => params.get(name) ?? '';
  const provider = get('provider');
  const keep = { currency: params.get('currency') ?? undefined };
  const pages = Math.max(1, Math.ceil(priceChanges.length / CHANGES_PAGE_SIZE));
  const page = Math.min(pages, Math.max(1, Number(params.get('page')) || 1));
  const shown = priceChanges.slice((page - 1) * CHANGES_PAGE_SIZE, page * CHANGES_PAGE_SIZE);
  const rises = priceChanges.filter((c) => c.kind === 'price_increased').length;
  const atLeast = feed.complete ? '' : 'at least ';
  const when = windowText(params);
  return (
    <section aria-labelledby="changes-title">
      <h1 id="changes-title">Changes</h1>
      <p class="small">
        What each sync changed: price rises and drops first, newest first. New, removed and returned
        types are counted per sync when you ask for them. Without a start date, the last{' '}
        {DEFAULT_WINDOW_DAYS} days.
      </p>
      <FilterForm label="Filter changes">
        <div class="field">
          <label for="c-kind">Kind</label>
          <select
            id="c-kind"
            value={kindChoice(params)}
            onChange={(e) => {
              const v = e.currentTarget.value;
              navigate({
                show: v === 'all' ? 'all' : undefined,
                kind: v === 'all' ? undefined : v,
                page: undefined,
              });
            }}
          >
            <option value="">Price changes</option>
            <option value="all">Everything</option>
            {CHANGE_KINDS.map((k) => (
              <option key={k} value={k}>
                Only: {CHANGE_KIND_LABEL[k] ?? k}
              </option>
            ))}
          </select>
        </div>
        <SelectField
          id="c-provider"
          label="Provider"
          value={provider}
          options={providerOptions()}
          onChange={(v) => setFilter('provider', v)}
        />
        <SelectField
          id="c-region"
          label="Region"
          value={get('region')}
          options={regions()
            .filter((r) => provider === '' || r.provider === provider)
            .map(
              (r) =>
                [
                  r.region_code,
                  `${cityName(r.city)}, ${r.country_code} · ${providerLabel(r.provider)} (${r.region_code})`,
                ] as const,
            )}
          onChange={(v) => setFilter('region', v)}
        />
        <div class="field">
          <label for="c-since">From (UTC date)</label>
          <input
            id="c-since"
            type="date"
            value={DATE.test(get('since')) ? get('since') : ''}
            onChange={(e) => setFilter('since', e.currentTarget.value)}
          />
        </div>
        <div class="field">
          <label for="c-until">Until (UTC date)</label>
          <input
            id="c-until"
            type="date"
            value={DATE.test(get('until')) ? get('until') : ''}
            onChange={(e) => setFilter('until', e.currentTarget.value)}
          />
        </div>
      </FilterForm>
      <ErrorMessage error={feed.error} onRetry={feed.reload} />
      {showsPrices && (
        <>
          <h2 id="price-changes-title">Price changes</h2>
          <Status loading={feed.loading}>
            {feed.items === undefined
              ? feed.loading
                ? 'Loading changes…'
                : ''
              : priceChanges.length === 0
                ? `No price changes ${when}.`
                : `${atLeast}${count.format(priceChanges.length)} price change${priceChanges.length === 1 ? '' : 's'} ${when}: ${count.format(rises)} up, ${count.format(priceChanges.length - rises)} down. Newest first.`}
          </Status>
          {shown.length > 0 && (
            <PriceChangesTable changes={shown} currency={currency} keep={keep} />
          )}
          {pages > 1 && (
            <Pager
              page={page}
              pages={pages}
              onPage={(p) => navigate({ page: p > 1 ? String(p) : undefined })}
            />
          )}
        </>
      )}
      {showsMembership && (
        <>
          <h2>Added, removed and returned</h2>
          {feed.items !== undefined && (
            <MembershipChanges items={membership} complete={feed.complete} keep={keep} />
          )}
        </>
      )}
      {!showsMembership && feed.items !== undefined && (
        <p>
          <Link to={{ ...Object.fromEntries(params), show: 'all', page: undefined }}>
            Also show additions and removals
          </Link>
        </p>
      )}
    </section>
  );
}

function PriceChangesTable({
  changes,
  currency,
  keep,
}: {
  changes: readonly ChangeItem[];
  currency: string;
  keep: { currency?: string | undefined };
}) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-labelledby="price-changes-title">
      <table class="data">
        <caption class="visually-hidden">Price changes, newest first</caption>
        <thead>
          <tr>
            <th scope="col" class="name-col">
              Instance, provider and region
            </th>
            <th scope="col" class="num">
              Change
            </th>
            <th scope="col" class="num">
              After ({currency}/month)
            </th>
            <th scope="col" class="num">
              Before ({currency}/month)
            </th>
            <th scope="col">Kind</th>
            <th scope="col">When</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((c) => (
            <tr key={c.id}>
              <th scope="row" class="name-col">
                <Link to={{ view: 'instance', id: String(c.instance.id), ...keep }}>
                  {c.instance.instance_name === c.instance.instance_id
                    ? c.instance.instance_id
                    : `${c.instance.instance_name} (${c.instance.instance_id})`}
                </Link>
                <span class="small change-place">
                  {providerLabel(c.instance.provider)} · {regionLabel(c.instance.region_code)}
                </span>
              </th>
              <td class={`num ${c.change_pct === null ? '' : c.change_pct > 0 ? 'up' : 'down'}`}>
                {c.change_pct === null ? '—' : percent(c.change_pct)}
              </td>
              <td class="num">{c.new === null ? '—' : money(c.new.monthly_price, currency)}</td>
              <td class="num">{c.old === null ? '—' : money(c.old.monthly_price, currency)}</td>
              <td>
                <span class={`badge kind-${c.kind}`}>{CHANGE_KIND_LABEL[c.kind] ?? c.kind}</span>
              </td>
              <td>{dateTime(c.at)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
