// The page of one instance record (D50: `id`): its specs, its price in every Asian region of its
// provider side by side, the price history chart, and similar types from every provider.
import type { JSX } from 'preact';
import { ErrorMessage, Link, Status } from '../components';
import { NotedCell } from '../field-notes';
import {
  benchmarkText,
  coremarkPerPriceText,
  CpuFacts,
  cpuModelText,
  gpuText,
  groupedText,
  IncludedFacts,
} from '../machine-facts';
import { count, dateTime, gib, money, percent } from '../format';
import {
  type DataSource,
  type HistoryData,
  type InstanceRecord,
  type InstancesData,
  type InstanceTypesData,
} from '../model';
import { cityName, regions as allRegions } from '../places';
import { useEffect } from 'preact/hooks';
import {
  OPTION_LABEL,
  PURCHASE_OPTIONS,
  optionPrice,
  purchaseOptionOf,
  withPurchaseOption,
  type PurchaseOption,
} from '../purchase-options';
import { keptState, type Kept } from '../url-state';
import { OptionPrices } from './option-prices';
import { useApi } from '../use-api';
import { nameText, regionText } from './instance-columns';
import { displayOf } from './instances';
import { PriceChart } from './price-chart';
import { historyPath, useOptionHistories } from './option-histories';
import { RateNote } from '../rate-note';
import { day, ObservedText, useSources } from '../provenance';

/** /instances memory bounds around this record's memory, `slack` either side (GiB, 3 decimals). */
function memoryBounds(memoryMb: number, slack: number): [string, string] {
  const gb = memoryMb / 1024;
  return [
    String(Math.floor(gb * (1 - slack) * 1000) / 1000),
    String(Math.ceil(gb * (1 + slack) * 1000) / 1000),
  ];
}

export function InstancePage({ params }: { params: URLSearchParams }) {
  const id = Number(params.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const currency = displayOf(params).currency;
  const chosen = purchaseOptionOf(params);
  // /history gives the record priced by the chosen option and that option's periods (D61).
  const asked = useApi<HistoryData>(valid ? historyPath(id, currency, chosen) : null);
  const record = asked.data?.instance;
  // A record not sold under it (Linode, Vultr: on-demand only) comes priced on-demand and has no
  // periods of the option: the page is then on-demand throughout, its history too.
  const option: PurchaseOption =
    record !== undefined && optionPrice(record, chosen) !== undefined ? chosen : 'on_demand';
  const fallback = useApi<HistoryData>(
    valid && record !== undefined && option !== chosen
      ? historyPath(id, currency, 'on_demand')
      : null,
  );
  const history = option === chosen ? asked : fallback;
  // D61: the chart draws the record's other options beside the one shown.
  const others = useOptionHistories(
    record?.id,
    currency,
    PURCHASE_OPTIONS.filter((o) => o !== option && record?.pricing.options[o] !== undefined),
  );
  const keep = keptState(params);
  const sources = useSources();
  // Each record its own title (tabs, history and bookmarks tell them apart).
  const title =
    record === undefined
      ? 'Instance · cloudprice'
      : `${nameText(record)}, ${record.provider.display_name} ${record.region.region_name} · cloudprice`;
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <section aria-labelledby="instance-title">
      <h1 id="instance-title">{record === undefined ? 'Instance' : nameText(record)}</h1>
      <p>
        <Link to={keep}>← All instances</Link>
      </p>
      {!valid && (
        <p class="error" role="alert">
          This link names no instance record (the <code>id</code> in the address is missing or not a
          whole number).
        </p>
      )}
      <ErrorMessage
        error={asked.error ?? fallback.error}
        onRetry={asked.error !== undefined ? asked.reload : fallback.reload}
      />
      {valid && record === undefined && asked.error === undefined && (
        <Status loading={asked.loading}>Loading…</Status>
      )}
      {record !== undefined && history.data !== undefined && (
        <>
          <Specs record={record} currency={currency} source={sources[record.provider.name]} />
          <h2 id="options-title">Prices by purchase option</h2>
          <OptionPrices record={record} currency={currency} option={chosen} />
          <h2 id="regions-title">
            Price in every region of {record.provider.display_name}
            {option === 'on_demand' ? '' : `, ${OPTION_LABEL[option]}`}
          </h2>
          <RegionPrices record={record} currency={currency} keep={keep} option={option} />
          <h2>
            Price history{chosen === 'on_demand' ? '' : `, ${OPTION_LABEL[option].toLowerCase()}`}
          </h2>
          <PriceChart
            periods={history.data.history}
            currency={currency}
            now={Date.now()}
            observedAt={record.pricing.observed_at}
            label={OPTION_LABEL[option]}
            others={others}
          />
          <HistoryTable data={history.data} currency={currency} />
          <RateNote
            rate={history.data.metadata?.exchange_rate}
            observed={[record.pricing.observed_at]}
          />
          <h2 id="similar-title">Similar types</h2>
          <Similar record={record} currency={currency} keep={keep} option={option} />
        </>
      )}
    </section>
  );
}

function Specs({
  record: r,
  currency,
  source,
}: {
  record: InstanceRecord;
  currency: string;
  source: DataSource | undefined;
}) {
  const shownOption = OPTION_LABEL[r.pricing.purchase_option].toLowerCase();
  const items: [string, string | JSX.Element][] = [
    ['Provider', r.provider.display_name],
    ['Region', `${regionText(r)}, ${r.region.country_code}`],
    ['Type', r.instance_id],
    ['Family', r.instance_family],
    ['vCPU', String(r.vcpu)],
    ['Memory', `${gib(r.memory_mb)} GiB`],
    ['CPU', <CpuFacts record={r} />],
    ['CPU model', cpuModelText(r) || 'not recorded'],
    ['Included in the price', <IncludedFacts record={r} />],
    ['Storage', <NotedCell record={r} field="storage_gb" unit=" GB" />],
    ['Transfer', <NotedCell record={r} field="transfer_tb" unit=" TB" />],
    ['Network', <NotedCell record={r} field="network_speed_gbps" unit=" Gbps" />],
    ['GPU', gpuText(r) || 'none'],
    ['CoreMark', benchmarkText(r)],
    ['CoreMark per USD/month', groupedText(coremarkPerPriceText(r)) || 'no score'],
    // The record as /history gives it: priced by the chosen option where it is sold under it.
    [`Hourly, ${shownOption}`, money(r.pricing.hourly_price, currency, true)],
    [`Monthly, ${shownOption}`, money(r.pricing.monthly_price, currency)],
    [
      `Per vCPU, ${shownOption}`,
      `${money(r.pricing.monthly_price_per_vcpu ?? undefined, currency)} / month`,
    ],
    [
      `Per GiB, ${shownOption}`,
      `${money(r.pricing.monthly_price_per_gb ?? undefined, currency)} / month`,
    ],
    ['Available', r.pricing.available === 1 ? 'yes' : 'no (no longer offered)'],
    ['Price observed', <ObservedText observedAt={r.pricing.observed_at} source={source} />],
  ];
  return (
    <>
      <dl class="specs">
        {items.map(([term, value]) => (
          <div key={term}>
            <dt>{term}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      {source !== undefined && (
        <p class="provenance small source-text">
          Price source ({source.kind}): {source.source}
        </p>
      )}
    </>
  );
}

function RegionPrices({
  record,
  currency,
  keep,
  option,
}: {
  record: InstanceRecord;
  currency: string;
  keep: Kept;
  /** An option this record is sold under. */
  option: PurchaseOption;
}) {
  // Regions side by side is /instance-types' own answer (D46): the type once, a cell per region.
  const query = new URLSearchParams({
    provider: record.provider.name,
    q: record.instance_id,
    limit: '100',
  });
  if (currency !== 'USD') query.set('currency', currency);
  withPurchaseOption(query, option);
  const answer = useApi<InstanceTypesData>(`/instance-types?${query.toString()}`);
  const type = answer.data?.instance_types.find(
    (t) => t.instance_id === record.instance_id && t.provider === record.provider.name,
  );
  const regions = allRegions()
    .filter((g) => g.provider === record.provider.name)
    .map((g) => ({ code: g.region_code, city: cityName(g.city), country: g.country_code }));
  const lowest = type?.min_monthly_price;
  const own = optionPrice(record, option)?.monthly_price ?? record.pricing.monthly_price;
  return (
    <>
      <ErrorMessage error={answer.error} onRetry={answer.reload} />
      <div class="table-wrap" tabIndex={0} role="region" aria-labelledby="regions-title">
        <table class="data" aria-busy={answer.loading}>
          <caption class="visually-hidden">
            {record.instance_id} in each region; the cheapest are marked
          </caption>
          <thead>
            <tr>
              <th scope="col" class="name-col">
                Region
              </th>
              <th scope="col" class="num">
                Monthly ({currency})
              </th>
              <th scope="col" class="num">
                vs this record
              </th>
              <th scope="col" class="num">
                Hourly ({currency})
              </th>
            </tr>
          </thead>
          <tbody>
            {regions.map((g) => {
              const cell = type?.prices[g.code];
              // Ties are ties: every region at the lowest price is the cheapest (as in Regions).
              const isCheapest = cell !== undefined && cell.monthly_price === lowest;
              const isThis = cell?.id === record.id;
              return (
                <tr key={g.code} class={isCheapest ? 'cheapest' : undefined}>
                  <th scope="row" class="name-col">
                    {cell === undefined || isThis ? (
                      `${g.city}, ${g.country} (${g.code})`
                    ) : (
                      <Link to={{ view: 'instance', id: String(cell.id), ...keep }}>
                        {g.city}, {g.country} ({g.code})
                      </Link>
                    )}
                    {isThis && <span class="small"> · this record</span>}
                    {isCheapest && <span class="badge badge-cheapest">cheapest</span>}
                  </th>
                  {cell === undefined ? (
                    <td colSpan={3} class="small">
                      {answer.loading ? 'Loading…' : 'not offered here'}
                    </td>
                  ) : (
                    <>
                      <td class="num">{money(cell.monthly_price, currency)}</td>
                      <td class="num">
                        {isThis || own === 0
                          ? '—'
                          : percent(((cell.monthly_price - own) / own) * 100)}
                      </td>
                      <td class="num">{money(cell.hourly_price, currency, true)}</td>
                    </>
                  )}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </>
  );
}

function HistoryTable({ data, currency }: { data: HistoryData; currency: string }) {
  return (
    <details class="history-table">
      <summary>The price periods as a table ({data.history.length})</summary>
      <div class="table-wrap" tabIndex={0} role="region" aria-label="Price periods">
        <table class="data">
          <caption class="visually-hidden">Price periods, newest first</caption>
          <thead>
            <tr>
              <th scope="col">From</th>
              <th scope="col">Until</th>
              <th scope="col" class="num">
                Hourly ({currency})
              </th>
              <th scope="col" class="num">
                Monthly ({currency})
              </th>
              <th scope="col">Available</th>
            </tr>
          </thead>
          <tbody>
            {data.history.map((p) => (
              <tr key={p.valid_from}>
                <td>{dateTime(p.valid_from)}</td>
                <td>{p.valid_to === null ? 'now' : dateTime(p.valid_to)}</td>
                <td class="num">{money(p.hourly_price, currency, true)}</td>
                <td class="num">{money(p.monthly_price, currency)}</td>
                <td>{p.available ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}

/** Same vCPU and memory within a quarter, any provider and region, cheapest first. */
function Similar({
  record,
  currency,
  keep,
  option,
}: {
  record: InstanceRecord;
  currency: string;
  keep: Kept;
  option: PurchaseOption;
}) {
  const [min, max] = memoryBounds(record.memory_mb, 0.25);
  const query = new URLSearchParams({
    min_vcpu: String(record.vcpu),
    max_vcpu: String(record.vcpu),
    min_memory_gb: min,
    max_memory_gb: max,
    sort_by: 'price',
    limit: '30',
    // The same city: a similar machine elsewhere is another decision (latency, law).
    city: record.region.city,
  });
  if (currency !== 'USD') query.set('currency', currency);
  withPurchaseOption(query, option);
  const answer = useApi<InstancesData>(`/instances?${query.toString()}`);
  // One row per other type (its cheapest region), not the same type again.
  const seen = new Set([`${record.provider.name}/${record.instance_id}`]);
  const rows: InstanceRecord[] = [];
  for (const r of answer.data?.instances ?? []) {
    const key = `${r.provider.name}/${r.instance_id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    rows.push(r);
  }
  const shown = rows.slice(0, 8);
  return (
    <>
      <ErrorMessage error={answer.error} onRetry={answer.reload} />
      <Status loading={answer.loading}>
        {answer.data === undefined
          ? 'Loading…'
          : shown.length === 0
            ? 'No other type has these vCPU and memory.'
            : `${count.format(shown.length)} other types in ${record.region.region_name} with ${record.vcpu} vCPU and ${gib(record.memory_mb)} GiB ±25%, cheapest first`}
      </Status>
      {shown.length > 0 && (
        <div class="table-wrap" tabIndex={0} role="region" aria-labelledby="similar-title">
          <table class="data">
            <caption class="visually-hidden">Similar types, cheapest first</caption>
            <thead>
              <tr>
                <th scope="col" class="name-col">
                  Instance
                </th>
                <th scope="col">Provider</th>
                <th scope="col">Region</th>
                <th scope="col" class="num">
                  Memory (GiB)
                </th>
                <th scope="col" class="num">
                  Monthly ({currency}
                  {option === 'on_demand' ? '' : `, ${OPTION_LABEL[option]}`})
                </th>
                <th scope="col">Observed</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((r) => (
                <tr key={r.id}>
                  <th scope="row" class="name-col">
                    <Link to={{ view: 'instance', id: String(r.id), ...keep }}>{nameText(r)}</Link>
                  </th>
                  <td>{r.provider.display_name}</td>
                  <td>{regionText(r)}</td>
                  <td class="num">{gib(r.memory_mb)}</td>
                  <td class="num">{money(r.pricing.monthly_price, currency)}</td>
                  <td>
                    <time dateTime={r.pricing.observed_at}>{day(r.pricing.observed_at)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
