// Changes: the change feed (GET /changes, D40) with its filters and cursor paging, all in the URL
// (D50): the cursor of each page is a history entry, so Back returns to the page before.
import { ErrorMessage, Link, Status } from '../components';
import { count, dateTime, money, percent } from '../format';
import { CHANGE_KIND_LABEL, CHANGE_KINDS, type ChangesData } from '../model';
import { cityName, providerLabel, regionLabel, regions } from '../places';
import { navigate } from '../url-state';
import { useApi } from '../use-api';
import { displayOf } from './instances';
import { FilterForm, providerOptions, SelectField } from './table-parts';

const FILTER_PARAMS = ['kind', 'provider', 'region', 'since', 'until'] as const;
export const CHANGES_PAGE_SIZE = 50;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The /changes query for the URL's state. */
export function changesQuery(params: URLSearchParams): URLSearchParams {
  const query = new URLSearchParams();
  for (const name of FILTER_PARAMS) {
    const value = params.get(name);
    if (value !== null && value !== '') query.set(name, value);
  }
  query.set('limit', String(CHANGES_PAGE_SIZE));
  const cursor = params.get('cursor');
  if (cursor !== null && cursor !== '') query.set('cursor', cursor);
  const currency = displayOf(params).currency;
  if (currency !== 'USD') query.set('currency', currency);
  return query;
}

/** Changing a filter starts again at the first page. */
function setFilter(name: string, value: string): void {
  navigate({ [name]: value, cursor: undefined, p: undefined });
}

export function ChangesView({ params }: { params: URLSearchParams }) {
  const answer = useApi<ChangesData>(`/changes?${changesQuery(params).toString()}`);
  const changes = answer.data?.changes ?? [];
  const next = answer.data?.next_cursor ?? null;
  const pageNumber = Math.max(1, Number(params.get('p')) || 1);
  const currency = displayOf(params).currency;
  const get = (name: string) => params.get(name) ?? '';
  const provider = get('provider');
  const keep = { currency: params.get('currency') ?? undefined };
  const first = (pageNumber - 1) * CHANGES_PAGE_SIZE;
  return (
    <section aria-labelledby="changes-title">
      <h1 id="changes-title">Changes</h1>
      <p class="small">
        What each sync changed: new and removed types, returns, and price rises and drops, oldest
        first. Without a start date, the last 7 days.
      </p>
      <FilterForm label="Filter changes">
        <SelectField
          id="c-kind"
          label="Kind"
          value={get('kind')}
          options={CHANGE_KINDS.map((k) => [k, CHANGE_KIND_LABEL[k] ?? k] as const)}
          onChange={(v) => setFilter('kind', v)}
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
      <ErrorMessage error={answer.error} onRetry={answer.reload} />
      <Status loading={answer.loading}>
        {answer.data === undefined
          ? answer.loading
            ? 'Loading changes…'
            : ''
          : changes.length === 0
            ? 'No changes match these filters.'
            : `Showing changes ${count.format(first + 1)}–${count.format(first + changes.length)}${next === null ? ' (the last page)' : ''}`}
      </Status>
      {changes.length > 0 && (
        <div
          class="table-wrap"
          tabIndex={0}
          role="region"
          aria-label="Changes table, scrolls sideways"
        >
          <table class="data" aria-busy={answer.loading}>
            <caption class="visually-hidden">Changes, oldest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Kind</th>
                <th scope="col" class="name-col">
                  Instance
                </th>
                <th scope="col">Provider</th>
                <th scope="col">Region</th>
                <th scope="col" class="num">
                  Before ({currency}/month)
                </th>
                <th scope="col" class="num">
                  After ({currency}/month)
                </th>
                <th scope="col" class="num">
                  Change
                </th>
              </tr>
            </thead>
            <tbody>
              {changes.map((c) => (
                <tr key={c.id}>
                  <td>{dateTime(c.at)}</td>
                  <td>
                    <span class={`badge kind-${c.kind}`}>
                      {CHANGE_KIND_LABEL[c.kind] ?? c.kind}
                    </span>
                  </td>
                  <th scope="row" class="name-col">
                    <Link to={{ view: 'instance', id: String(c.instance.id), ...keep }}>
                      {c.instance.instance_name === c.instance.instance_id
                        ? c.instance.instance_id
                        : `${c.instance.instance_name} (${c.instance.instance_id})`}
                    </Link>
                  </th>
                  <td>{providerLabel(c.instance.provider)}</td>
                  <td>{regionLabel(c.instance.region_code)}</td>
                  <td class="num">{c.old === null ? '—' : money(c.old.monthly_price, currency)}</td>
                  <td class="num">{c.new === null ? '—' : money(c.new.monthly_price, currency)}</td>
                  <td
                    class={`num ${c.change_pct === null ? '' : c.change_pct > 0 ? 'up' : 'down'}`}
                  >
                    {c.change_pct === null ? '—' : percent(c.change_pct)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav class="pager" aria-label="Pages">
        {params.get('cursor') !== null && (
          <Link
            to={{ ...Object.fromEntries(params), cursor: undefined, p: undefined }}
            class="button"
          >
            First page
          </Link>
        )}
        <button
          type="button"
          disabled={next === null}
          onClick={() => navigate({ cursor: next ?? undefined, p: String(pageNumber + 1) })}
        >
          Next page
        </button>
        <span class="small">Use Back to return to the page before.</span>
      </nav>
    </section>
  );
}
