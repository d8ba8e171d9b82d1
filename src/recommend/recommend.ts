// The one entry the POST /recommend route (and the CLI) calls: requirements, ranking and the
// response's `data` in wire shape (section 4.4). Pure: the caller reads the candidates.

import type { PriceOrdered } from '../catalog/index/record-columns.js';
import { benchmarkOf, cpuOf, type InstanceRecord } from '../catalog/instance-json.js';
import { moneyView, type MoneyView } from '../catalog/money-view.js';
import type { PurchaseOption } from '../catalog/purchase-options.js';
import { currencyBudgetText, usdBudgetText, type BudgetText } from './budget-text.js';
import { prosAndCons } from './pros-cons.js';
import { recommend } from './rank.js';
import type { Candidate } from './rank.js';
import { computeRequirements } from './requirements.js';
import type { RecommendRequest } from './validate-request.js';

export interface RequirementsDto {
  readonly min_memory_mb: number;
  readonly min_vcpu: number;
  readonly breakdown: Readonly<Record<string, string>>;
}

export interface ScoreBreakdownDto {
  readonly memory_fit: number;
  readonly vcpu_fit: number;
  readonly price_fit: number;
  readonly storage_fit: number;
  readonly tie_break: number;
}

export interface RecommendationDto {
  readonly rank: number;
  /** A registered provider's name. */
  readonly provider: string;
  /** Instance display name. */
  readonly instance: string;
  /** Region display name (D31). */
  readonly region: string;
  readonly specs: {
    readonly vcpu: number;
    readonly memory_mb: number;
    readonly storage_gb: number;
  };
  /**
   * In `currency` (USD by default, D43): monthly rounded to the currency's minor unit (2
   * decimals for USD), hourly to 4 (D36).
   */
  readonly price: {
    readonly monthly: number;
    readonly hourly: number;
    readonly currency: string;
    /** D61: the purchase option these prices are of. */
    readonly purchase_option: PurchaseOption;
  };
  readonly match_score: number;
  /** D58's fits and tie-break value, each rounded to 4 decimals (computed unrounded). */
  readonly score_breakdown: ScoreBreakdownDto;
  readonly pros: readonly string[];
  readonly cons: readonly string[];
  /** Extension: the record's id (as in /instances), so a client can open that record. */
  readonly id: number;
  /** Extension: the provider's instance type id and the region code of the record. */
  readonly instance_id: string;
  readonly region_code: string;
  /**
   * Extension (issue 32): the record's machine facts (D62, D63) and when its price was observed
   * (D37), as in /instances, so a result can say what it runs on and how current it is.
   */
  readonly cpu: InstanceRecord['cpu'];
  readonly benchmark: InstanceRecord['benchmark'];
  readonly observed_at: string;
}

export interface SummaryDto {
  /** Records passing the request's filters and memory floor (D28), over budget included. */
  readonly candidates: number;
  /** Of those, within budget_max (all of them without one). */
  readonly within_budget: number;
  /** The cheapest record meeting memory, vCPU and budget; null when none does. */
  readonly cheapest_meeting_requirements: {
    readonly provider: string;
    readonly instance: string;
    readonly region: string;
    readonly monthly: number;
  } | null;
}

export interface RecommendData {
  readonly requirements: RequirementsDto;
  readonly recommendations: readonly RecommendationDto[];
  /** Extension (D67). */
  readonly summary: SummaryDto;
}

/** A D58 fit as the response shows it: rounded half away from zero to 4 decimals. */
export function roundFit(value: number): number {
  return Math.round(value * 10_000) / 10_000;
}

/**
 * The response's `data` for a validated request over the available records. Records that do not
 * fit (memory, providers, regions) are filtered here too, so any superset of the store's answer
 * gives the same result.
 */
export function buildRecommendations(
  /** Any list of records, or one in price order with its columns (CatalogIndex.byMonthlyPrice). */
  candidates: readonly Candidate[] | PriceOrdered<Candidate>,
  request: RecommendRequest,
  /** Prices in request.currency (D43); must be that currency's view. USD by default. */
  money: MoneyView = moneyView(undefined, 'USD'),
  /** Prices observed at or before this instant (epoch ms) are stale (D57); none by default. */
  staleAtOrBefore = -Infinity,
): RecommendData {
  const requirements = computeRequirements(request.stack, request.scale);
  let budgetMaxMicros = request.budgetMaxMicros;
  let budgetText: BudgetText | undefined;
  if (request.budgetMaxMicros !== undefined && money.currency === 'USD') {
    budgetText = usdBudgetText(request.budgetMaxMicros);
  } else if (request.budgetMaxMicros !== undefined) {
    // A budget in another currency compares the converted, displayed price (D43): with
    // monotonic conversion that is one bound on the exact USD price. The budget as parsed (cut
    // to the millionth), read in the requested currency.
    const budget = { units: BigInt(request.budgetMaxMicros), scale: 6 };
    budgetMaxMicros = money.maxMonthlyMicrosShownAtMost(budget);
    budgetText = currencyBudgetText(money, budget);
  }
  const criteria = {
    minMemoryMb: requirements.minMemoryMb,
    minVcpu: requirements.minVcpu,
    limit: request.limit,
    ...(budgetMaxMicros === undefined ? {} : { budgetMaxMicros }),
    ...(request.providers === undefined ? {} : { providers: request.providers }),
    ...(request.regions === undefined ? {} : { regions: request.regions }),
    ...(request.architectures === undefined ? {} : { architectures: request.architectures }),
    ...(request.allocations === undefined ? {} : { allocations: request.allocations }),
    rankBy: request.rankBy,
  };
  const { ranked, countedMonthlyMicros, summary } = recommend(candidates, criteria);
  const meeting = summary.cheapestMeetingRequirements;
  const recommendations = ranked.map((entry): RecommendationDto => {
    const c = entry.candidate;
    const { pros, cons } = prosAndCons(entry, {
      criteria,
      countedMonthlyMicros,
      first: ranked[0]!.candidate,
      money,
      staleAtOrBefore,
      budgetText,
    });
    const { fits } = entry;
    return {
      rank: entry.rank,
      provider: c.providerName,
      instance: c.instanceName,
      region: c.regionName,
      specs: { vcpu: c.vcpu, memory_mb: c.memoryMb, storage_gb: c.storageGb },
      price: {
        monthly: money.monthly(c.monthlyMicros),
        hourly: money.hourly(c.hourlyMicros),
        currency: money.currency,
        purchase_option: c.purchaseOption,
      },
      match_score: entry.parts.score,
      score_breakdown: {
        memory_fit: roundFit(fits.memory),
        vcpu_fit: roundFit(fits.vcpu),
        price_fit: roundFit(fits.price),
        storage_fit: roundFit(fits.storage),
        tie_break: roundFit(fits.tieBreak),
      },
      pros,
      cons,
      id: c.id,
      instance_id: c.instanceId,
      region_code: c.regionCode,
      cpu: cpuOf(c.facts),
      benchmark: benchmarkOf(c.facts, c.monthlyMicros),
      observed_at: new Date(c.observedAt).toISOString(),
    };
  });
  return {
    requirements: {
      min_memory_mb: requirements.minMemoryMb,
      min_vcpu: requirements.minVcpu,
      breakdown: requirements.breakdown,
    },
    recommendations,
    summary: {
      candidates: summary.candidates,
      within_budget: summary.withinBudget,
      cheapest_meeting_requirements:
        meeting === undefined
          ? null
          : {
              provider: meeting.providerName,
              instance: meeting.instanceName,
              region: meeting.regionName,
              monthly: money.monthly(meeting.monthlyMicros),
            },
    },
  };
}
