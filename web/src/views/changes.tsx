// Changes: what syncs changed (GET /changes, D40, ADR 0022). It opens on price changes, rises
// and drops, newest first with their total: one request per page (`order=newest`,
// `summary=true`). Additions, removals and returns come on request (`show=all`), one line per
// sync and kind from a summary. Filters and the page are in the URL (D50); `kind` (one kind)
// still narrows to that kind, as older links expect. `purchase_option` (D61) picks whose changes:
// on-demand's (the default, left out), one other option's, or every option's (`all`), each item
// then marked with its option.
import { ErrorMessage, Link, Status } from '../components';
import { count, dateTime, money, percent } from '../format';
import { CHANGE_KIND_LABEL, CHANGE_KINDS, type ChangeItem } from '../model';
import { cityName, providerLabel, regionLabel, regions } from '../places';
import {
  ALL_OPTIONS,
  feedOptionOf,
  OPTION_LABEL,
  optionParam,
  withPurchaseOption,
  type FeedOption,
} from '../purchase-options';
import { navigate } from '../url-state';
import { useApi } from '../use-api';
import { RateNote } from '../rate-note';
import type { ChangesData } from '../model';
import { useChangesPage } from './changes-page';
import { MEMBERSHIP_KINDS, MembershipChanges } from './changes-membership';
import { nameText } from './instance-columns';
import { displayOf } from './instances';
import { PurchaseOptionField, PurchaseOptionNote } from './purchase-option-field';
import {
  FilterForm,
  pageParam,
  pageValue,
  Pager,
  providerOptions,
  SelectField,
} from './table-parts';
import './changes.css';

const FILTER_PARAMS = ['provider', 'region', 'since', 'until'] as const;
const PRICE_KINDS = ['price_increased', 'price_decreased'] as const;
export const CHANGES_PAGE_SIZE = 50;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/**
 * The start the view asks for when the URL names none: the whole feed, read newest first, so a
 * fresh install opens on its recorded history (D64: changes at their recordings' dates, months
 * or years back), not on an empty last week (the API's own default, D40).
 */
const WHOLE_HISTORY_SINCE = '2000-01-01';

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

/** The URL's filters, currency and purchase option as /changes parameters (no kind, no paging). */
export function changesFilters(params: URLSearchParams): URLSearchParams {
  const base = new URLSearchParams();
  for (const name of FILTER_PARAMS) {
    const value = params.get(name);
    if (value !== null && value !== '') base.set(name, value);
  }
  if (!base.has('since')) base.set('since', WHOLE_HISTORY_SINCE);
  const currency = displayOf(params).currency;
  if (currency !== 'USD') base.set('currency', currency);
  withPurchaseOption(base, feedOptionOf(params));
  return base;
}

/** `base` narrowed to `kinds` (none: undefined, nothing to ask), with more parameters. */
function kindQuery(
  base: URLSearchParams,
  kinds: readonly string[],
  more: Record<string, string>,
): string | undefined {
  if (kinds.length === 0) return undefined;
  const query = new URLSearchParams(base);
  query.set('kind', kinds.join(','));
  for (const [name, value] of Object.entries(more)) query.set(name, value);
  return query.toString();
}

/** Changing a filter starts again at the first page. */
function setFilter(name: string, value: string | undefined): void {
  navigate({ [name]: value, page: undefined });
}

function windowText(params: URLSearchParams): string {
  const since = params.get('since') ?? '';
  const until = params.get('until') ?? '';
  const from = DATE.test(since) ? `from ${since}` : 'in the whole history';
  return DATE.test(until) ? `${from} until ${until}` : from;
}

export function ChangesView({ params }: { params: URLSearchParams }) {
  const kinds = changeKinds(params);
  const base = changesFilters(params);
  const priceKinds = kinds.filter((k) => (PRICE_KINDS as readonly string[]).includes(k));
  const membershipKinds = kinds.filter((k) => (MEMBERSHIP_KINDS as readonly string[]).includes(k));
  const showsPrices = priceKinds.length > 0;
  const showsMembership = membershipKinds.length > 0;
  const priceQuery = kindQuery(base, priceKinds, {
    order: 'newest',
    summary: 'true',
    limit: String(CHANGES_PAGE_SIZE),
  });
  const prices = useChangesPage(priceQuery, pageParam(params));
  // Only the summary is read: its one item is not shown.
  const membershipQuery = kindQuery(base, membershipKinds, { summary: 'true', limit: '1' });
  const membership = useApi<ChangesData>(
    membershipQuery === undefined ? null : `/changes?${membershipQuery}`,
  );
  const currency = displayOf(params).currency;
  const get = (name: string) => params.get(name) ?? '';
  const provider = get('provider');
  const keep = { currency: params.get('currency') ?? undefined };
  const summary = prices.data?.summary;
  const total = summary?.total ?? 0;
  const rises = summary?.kinds.price_increased ?? 0;
  const pages = Math.max(1, Math.ceil(total / CHANGES_PAGE_SIZE));
  const shown = prices.data?.changes ?? [];
  const when = windowText(params);
  const option = feedOptionOf(params);
  // Which changes the count is of: on-demand's read as before, with no word added.
  const whose =
    option === 'on_demand'
      ? ''
      : option === ALL_OPTIONS
        ? ' (every option)'
        : ` (${OPTION_LABEL[option]})`;
  return (
    <section aria-labelledby="changes-title">
      <h1 id="changes-title">Changes</h1>
      <p class="small">
        What each sync changed: price rises and drops first, newest first. New, removed and returned
        types are counted per sync when you ask for them. Without a start date, the whole history
        (recorded prices carry their recordings' dates).
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
        <PurchaseOptionField<FeedOption>
          id="c-purchase-option"
          value={option}
          all
          onChange={(o) => setFilter('purchase_option', optionParam(o))}
        />
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
      <PurchaseOptionNote id="c-purchase-option" option={option} scope="changes" />
      {showsPrices && <ErrorMessage error={prices.error} onRetry={prices.reload} />}
      {showsPrices && (
        <>
          <h2 id="price-changes-title">Price changes</h2>
          <Status loading={prices.loading}>
            {summary === undefined
              ? prices.loading
                ? 'Loading changes…'
                : ''
              : total === 0
                ? `No price changes${whose} ${when}.`
                : `${count.format(total)} price change${total === 1 ? '' : 's'}${whose} ${when}: ${count.format(rises)} up, ${count.format(total - rises)} down. Newest first.`}
          </Status>
          {shown.length > 0 && (
            <PriceChangesTable
              changes={shown}
              currency={currency}
              keep={keep}
              showOption={option === ALL_OPTIONS}
            />
          )}
          {shown.length > 0 && (
            <RateNote
              rate={prices.data?.metadata?.exchange_rate}
              observed={shown.map((c) => c.at)}
            />
          )}
          {pages > 1 && (
            <Pager
              page={prices.page}
              pages={pages}
              onPage={(p) => navigate({ page: pageValue(p) })}
            />
          )}
        </>
      )}
      {showsMembership && <ErrorMessage error={membership.error} onRetry={membership.reload} />}
      {showsMembership && (
        <>
          <h2>Added, removed and returned</h2>
          {membership.data?.summary !== undefined && (
            <MembershipChanges summary={membership.data.summary} base={base} keep={keep} />
          )}
        </>
      )}
      {!showsMembership && summary !== undefined && (
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
  showOption,
}: {
  changes: readonly ChangeItem[];
  currency: string;
  keep: { currency?: string | undefined };
  /** Several options are listed: each item says whose price changed. */
  showOption: boolean;
}) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-labelledby="price-changes-title">
      <table class="data stack">
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
            {showOption && <th scope="col">Purchase option</th>}
            <th scope="col">When</th>
          </tr>
        </thead>
        <tbody>
          {changes.map((c) => (
            <tr key={c.id}>
              <th scope="row" class="name-col">
                <Link
                  to={{
                    view: 'instance',
                    id: String(c.instance.id),
                    ...keep,
                    // The record opens priced by the option whose price changed.
                    purchase_option: optionParam(c.purchase_option),
                  }}
                >
                  {nameText(c.instance)}
                </Link>
                <span class="small change-place">
                  {providerLabel(c.instance.provider)} · {regionLabel(c.instance.region_code)}
                </span>
              </th>
              <td
                class={`num card-l ${c.change_pct === null ? '' : c.change_pct > 0 ? 'up' : 'down'}`}
                data-label="Change"
              >
                {c.change_pct === null ? '—' : percent(c.change_pct)}
              </td>
              <td class="num card-price" data-label={`After (${currency}/month)`}>
                {c.new === null ? '—' : money(c.new.monthly_price, currency)}
              </td>
              <td class="num card-r" data-label="Before">
                {c.old === null ? '—' : money(c.old.monthly_price, currency)}
              </td>
              <td class="card-l" data-label="Kind">
                <span class={`badge kind-${c.kind}`}>{CHANGE_KIND_LABEL[c.kind] ?? c.kind}</span>
              </td>
              {showOption && (
                // Last on a card (card-wide), so Kind and When keep their line.
                <td class="card-wide option-cell" data-label="Purchase option">
                  {OPTION_LABEL[c.purchase_option]}
                </td>
              )}
              <td class="card-r" data-label="When">
                {dateTime(c.at)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
