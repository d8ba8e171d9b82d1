// POST /recommend's core, shared by the route and `cloudprice recommend`: validate the body,
// take one snapshot of the exchange rates, rank the catalogue. One way to recommend.
import { moneyView, type ExchangeRateNote, type MoneyView } from '../catalog/money-view.js';
import type { ExchangeRateService } from '../fx/exchange-rates.js';
import { staleAtOrBefore } from '../catalog/freshness.js';
import type { CatalogIndex } from '../catalog/index/catalog-index.js';
import type { CatalogIndexHolder } from '../catalog/index/catalog-index-holder.js';
import { buildRecommendations, type RecommendData } from './recommend.js';
import {
  parseRecommendRequest,
  type RecommendRequest,
  type RecommendRequestError,
} from './validate-request.js';

export interface RecommendDeps {
  /** The current catalogue (the in-memory index): candidates are read from it, never SQL. */
  readonly catalog: Pick<CatalogIndexHolder, 'current' | 'ready'>;
  readonly rates: Pick<ExchangeRateService, 'current' | 'currencies'>;
  /** DATA_STALE_DAYS (D57): a price observed longer ago than this many whole days is stale. */
  readonly config: { readonly dataStaleDays: number };
  /** Wall clock, epoch ms; Date.now by default. */
  readonly now?: () => number;
}

/**
 * How many of the index's distinct observation instants are stale at `cutoff`: within one
 * index, two moments with the same count mark exactly the same records stale, so an answer
 * can be reused between them (the route's memo key carries it).
 */
function staleObservations(index: CatalogIndex, cutoff: number): number {
  const times = index.observationInstants;
  let count = 0;
  while (count < times.length && times[count]! <= cutoff) count += 1;
  return count;
}

export type RecommendOutcome =
  | {
      readonly ok: true;
      readonly data: RecommendData;
      /** Set when prices are converted (D43): the rate used, for the response's meta. */
      readonly exchangeRate: ExchangeRateNote | undefined;
      /** Decimals of the monthly prices (the currency's minor unit), for display. */
      readonly monthlyDigits: number;
    }
  | { readonly ok: false; readonly error: RecommendRequestError };

/** A valid request with everything its answer depends on, taken once (one snapshot each). */
export interface PreparedRecommendation {
  readonly ok: true;
  readonly request: RecommendRequest;
  /** Prices in the request's currency, from one snapshot of the rates. */
  readonly money: MoneyView;
  /** The catalogue version the answer is computed from. */
  readonly index: CatalogIndex;
  /** Prices observed at or before this instant (epoch ms) are stale (D57). */
  readonly staleAtOrBefore: number;
  /**
   * The number of the index's distinct observation instants that are stale: with the index,
   * the request and the money, it fixes the answer (part of the memo key).
   */
  readonly staleMark: number;
}

/** Validates the body and takes the rates and the index the answer will be computed from. */
export async function prepareRecommend(
  body: unknown,
  deps: RecommendDeps,
): Promise<PreparedRecommendation | { readonly ok: false; readonly error: RecommendRequestError }> {
  // One snapshot of the rates for the whole request: the allowed list and the prices agree.
  const table = deps.rates.current();
  const parsed = parseRecommendRequest(body, deps.rates.currencies());
  if (!parsed.ok) return { ok: false, error: parsed.error };
  const money = moneyView(table, parsed.value.currency);
  // D61: the option's index prices every candidate by that option (and lists only its records).
  const index = (deps.catalog.current ?? (await deps.catalog.ready())).forOption(
    parsed.value.purchaseOption,
  );
  const cutoff = staleAtOrBefore((deps.now ?? Date.now)(), deps.config.dataStaleDays);
  return {
    ok: true,
    request: parsed.value,
    money,
    index,
    staleAtOrBefore: cutoff,
    staleMark: staleObservations(index, cutoff),
  };
}

/**
 * The answer's data for a prepared request (pure given its inputs). The ranking picks the
 * candidates out of the whole catalogue itself; in price order, the prices it counts come sorted.
 */
export function computeRecommendations(prepared: PreparedRecommendation): RecommendData {
  const { index, request, money } = prepared;
  return buildRecommendations(index.byMonthlyPrice, request, money, prepared.staleAtOrBefore);
}

/** `body`: the request as parsed JSON (the CLI builds the same object from its options). */
export async function recommendFor(body: unknown, deps: RecommendDeps): Promise<RecommendOutcome> {
  const prepared = await prepareRecommend(body, deps);
  if (!prepared.ok) return prepared;
  const { money } = prepared;
  const data = computeRecommendations(prepared);
  return { ok: true, data, exchangeRate: money.note, monthlyDigits: money.monthlyDigits };
}
