// Why each recommendation has its rank (issue 25): D58's four fits as small bars with their
// figures, the API's own pros and cons, what it costs against rank 1 (amount and percent), and
// when its price was observed (D57; a stale one is flagged), and what it runs on: the CPU (Arm
// and burstable marked) and the CoreMark score with its date (issue 32).
import { Link } from '../components';
import { count, gib, money, percent } from '../format';
import { type DataSource, type Recommendation, type RecommendData } from '../model';
import { providerLabel, regionLabel } from '../places';
import { OPTION_LABEL, optionParam, type PurchaseOption } from '../purchase-options';
import { CpuFacts, cpuModelText } from '../machine-facts';
import { day, InferredMark, ObservedText, useSources, type Sources } from '../provenance';
import './recommend.css';

const FITS = [
  { key: 'memory_fit', label: 'Memory fit', weight: 0.4 },
  { key: 'vcpu_fit', label: 'vCPU fit', weight: 0.3 },
  { key: 'price_fit', label: 'Price fit', weight: 0.2 },
  { key: 'storage_fit', label: 'Storage fit', weight: 0.1 },
] as const;

/** What each fit measures, in words, for this recommendation and requirement. */
function fitWords(
  key: (typeof FITS)[number]['key'],
  r: Recommendation,
  need: RecommendData['requirements'],
): string {
  switch (key) {
    case 'memory_fit':
      return `${gib(need.min_memory_mb)} GiB needed of ${gib(r.specs.memory_mb)} GiB`;
    case 'vcpu_fit':
      return `${r.specs.vcpu} of ${need.min_vcpu} vCPU suggested`;
    case 'price_fit':
      return 'cheapest candidate’s price ÷ this price';
    case 'storage_fit':
      return r.specs.storage_gb > 0
        ? `${count.format(r.specs.storage_gb)} GB local storage`
        : 'no local storage (block storage billed apart)';
  }
}

function FitBar({ value }: { value: number }) {
  const width = Math.max(0, Math.min(1, value)) * 100;
  return (
    <svg class="fit-bar" viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true">
      <rect class="fit-track" x="0" y="0" width="100" height="8" />
      <rect class="fit-value" x="0" y="0" width={width} height="8" />
    </svg>
  );
}

function Fits({ r, need }: { r: Recommendation; need: RecommendData['requirements'] }) {
  const b = r.score_breakdown;
  return (
    <div class="fits">
      <h4>
        Order among equal scores: tie-break {b.tie_break.toFixed(4)}{' '}
        <span class="small">(0.4 memory + 0.3 vCPU + 0.2 price + 0.1 storage)</span>
      </h4>
      <dl>
        {FITS.map((f) => (
          <div key={f.key}>
            <dt>{f.label}</dt>
            <dd>
              <FitBar value={b[f.key]} />
              <span class="fit-figure">{b[f.key].toFixed(2)}</span>
              <span class="small fit-words">{fitWords(f.key, r, need)}</span>
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

/** "+$4.00/month (+20.0%) against rank 1", or that it is rank 1 or costs the same. */
function againstFirst(r: Recommendation, first: Recommendation, currency: string): string {
  if (r.rank === first.rank) return 'Rank 1: the price the others are measured against';
  const difference = r.price.monthly - first.price.monthly;
  if (difference === 0) return 'Same monthly price as rank 1';
  const pct =
    first.price.monthly === 0 ? '' : ` (${percent((difference / first.price.monthly) * 100)})`;
  const amount = money(Math.abs(difference), currency);
  return `${difference > 0 ? '+' : '−'}${amount}/month${pct} against rank 1`;
}

function Card({
  r,
  first,
  need,
  currency,
  source,
}: {
  r: Recommendation;
  first: Recommendation;
  need: RecommendData['requirements'];
  currency: string;
  source: DataSource | undefined;
}) {
  const priceCurrency = r.price.currency;
  const inferred = source?.inferred_regions?.includes(r.region_code) === true;
  const dearer = r.price.monthly > first.price.monthly;
  return (
    <li class="card">
      <div class="card-head">
        <span class="rank">
          <span class="visually-hidden">Rank </span>
          <span aria-hidden="true">#</span>
          {r.rank}
        </span>
        <h3>
          <Link
            to={{
              view: 'instance',
              id: String(r.id),
              currency: currency === 'USD' ? undefined : currency,
              purchase_option: optionParam(r.price.purchase_option),
            }}
          >
            {r.instance}
          </Link>
        </h3>
        <span class="score">
          <span class="visually-hidden">Match score </span>
          {r.match_score}
          <span class="small">
            <span aria-hidden="true">/100</span>
            <span class="visually-hidden"> of 100</span>
          </span>
        </span>
      </div>
      <p class="small card-specs">
        {providerLabel(r.provider)} · {regionLabel(r.region_code)} · {r.specs.vcpu} vCPU ·{' '}
        {gib(r.specs.memory_mb)} GiB · {r.specs.storage_gb} GB storage
        {inferred && (
          <>
            {' '}
            <InferredMark />
          </>
        )}
      </p>
      <p class="small card-facts">
        CPU: <CpuFacts record={r} />
        {r.cpu.model !== null && ` (${cpuModelText(r)})`} ·{' '}
        {r.benchmark === null
          ? 'no CoreMark score recorded'
          : `CoreMark ${count.format(r.benchmark.coremark)}${
              r.benchmark.coremark_per_usd_month === null
                ? ''
                : ` (${count.format(Math.round(r.benchmark.coremark_per_usd_month))} per USD/month)`
            }, ran ${day(r.benchmark.ran_at)}`}
      </p>
      <p class="price">
        {money(r.price.monthly, priceCurrency)} / month{' '}
        <span class="small">({money(r.price.hourly, priceCurrency, true)} / hour)</span>{' '}
        <span class="option-tag">{OPTION_LABEL[r.price.purchase_option]}</span>
      </p>
      <p class={`against-first${dearer ? ' up' : ''}`}>{againstFirst(r, first, priceCurrency)}</p>
      <p class="small observed-line">
        Price observed <ObservedText observedAt={r.observed_at} source={source} />
      </p>
      <Fits r={r} need={need} />
      <div class="pros-cons">
        <div>
          <h4>Pros</h4>
          <ul>{r.pros.length === 0 ? <li>—</li> : r.pros.map((p) => <li key={p}>{p}</li>)}</ul>
        </div>
        <div>
          <h4>Cons</h4>
          <ul>{r.cons.length === 0 ? <li>None</li> : r.cons.map((c) => <li key={c}>{c}</li>)}</ul>
        </div>
      </div>
    </li>
  );
}

/** Each listed provider's data source, once, rather than in every card. */
function Sources({ providers, sources }: { providers: readonly string[]; sources: Sources }) {
  const listed = providers.filter((p) => sources[p] !== undefined);
  if (listed.length === 0) return null;
  return (
    <ul class="small price-sources">
      {listed.map((p) => (
        <li key={p} class="source-text">
          {providerLabel(p)} prices: {sources[p]!.source}
        </li>
      ))}
    </ul>
  );
}

/** How the list is ordered, for each of D67's `rank_by`. */
const RANK_TEXT: Readonly<Record<string, string>> = {
  fit: 'Ranked by match score; among equal scores by the tie-break of four fits (1 is best), then by monthly price.',
  price:
    'Cheapest first among those meeting the memory and vCPU suggestion and the budget; then the rest by match score.',
  performance_per_price:
    'By CoreMark per USD of monthly price, highest first, among those meeting the memory and vCPU suggestion and the budget (types without a score after those with one); then the rest by match score.',
};

export function Results({
  data,
  currency,
  rankBy = 'fit',
  option = 'on_demand',
}: {
  data: RecommendData;
  currency: string;
  /** D67's order the list was asked in. */
  rankBy?: string;
  /** D61's purchase option the list was asked for. */
  option?: PurchaseOption;
}) {
  const { requirements } = data;
  const sources = useSources();
  const recommendations = data.recommendations;
  const first = recommendations[0];
  return (
    <>
      <h2>Requirements</h2>
      <p>
        At least <strong>{gib(requirements.min_memory_mb)} GiB</strong> memory (
        {count.format(requirements.min_memory_mb)} MB) and{' '}
        <strong>{requirements.min_vcpu} vCPU</strong>.
      </p>
      <dl class="breakdown">
        {Object.entries(requirements.breakdown).map(([name, value]) => (
          <div key={name}>
            <dt>{name === 'os_overhead' ? 'OS overhead' : name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <h2>Recommendations</h2>
      {first === undefined ? (
        <p>
          No instance{option === 'on_demand' ? '' : ` sold as ${OPTION_LABEL[option]}`} has enough
          memory for this stack.
        </p>
      ) : (
        <>
          <p class="small">
            {RANK_TEXT[rankBy]} Every price is {OPTION_LABEL[option].toLowerCase()}
            {option === 'on_demand' ? '' : ', and only records sold so are ranked'}.
          </p>
          <Sources
            providers={[...new Set(recommendations.map((r) => r.provider))]}
            sources={sources}
          />
          <ol class="cards">
            {recommendations.map((r) => (
              <Card
                key={`${r.rank}`}
                r={r}
                first={first}
                need={requirements}
                currency={currency}
                source={sources[r.provider]}
              />
            ))}
          </ol>
        </>
      )}
    </>
  );
}
