// The one entry the POST /recommend route (and the CLI) calls: requirements, ranking and the
// response's `data` in wire shape (section 4.4). Pure: the caller reads the candidates.

import { hourlyFromMicros, monthlyFromMicros } from '../catalog/money.js';
import type { CandidateQuery } from '../storage/catalog-store.js';
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

export interface RecommendationDto {
  readonly rank: number;
  /** Provider name (provider_a ...). */
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
  /** USD; monthly rounded to 2 decimals, hourly to 4 (D36). */
  readonly price: { readonly monthly: number; readonly hourly: number };
  readonly match_score: number;
  readonly pros: readonly string[];
  readonly cons: readonly string[];
  /** Extension: the record's id (as in /instances), so a client can open that record. */
  readonly id: number;
  /** Extension: the provider's instance type id and the region code of the record. */
  readonly instance_id: string;
  readonly region_code: string;
}

export interface RecommendData {
  readonly requirements: RequirementsDto;
  readonly recommendations: readonly RecommendationDto[];
}

/** What to ask the store for: records that can match this request (D28, D30 filters). */
export function candidateQueryFor(request: RecommendRequest): CandidateQuery {
  const { minMemoryMb } = computeRequirements(request.stack, request.scale);
  return {
    minMemoryMb,
    ...(request.providers === undefined ? {} : { providers: request.providers }),
    ...(request.regions === undefined ? {} : { regions: request.regions }),
  };
}

/**
 * The response's `data` for a validated request over the available records. Records that do not
 * fit (memory, providers, regions) are filtered here too, so any superset of the store's answer
 * gives the same result.
 */
export function buildRecommendations(
  candidates: readonly Candidate[],
  request: RecommendRequest,
): RecommendData {
  const requirements = computeRequirements(request.stack, request.scale);
  const criteria = {
    minMemoryMb: requirements.minMemoryMb,
    minVcpu: requirements.minVcpu,
    limit: request.limit,
    ...(request.budgetMaxMicros === undefined ? {} : { budgetMaxMicros: request.budgetMaxMicros }),
    ...(request.providers === undefined ? {} : { providers: request.providers }),
    ...(request.regions === undefined ? {} : { regions: request.regions }),
  };
  const { ranked, matchingMonthlyMicros } = recommend(candidates, criteria);
  const recommendations = ranked.map((entry): RecommendationDto => {
    const c = entry.candidate;
    const { pros, cons } = prosAndCons(entry, criteria, matchingMonthlyMicros);
    return {
      rank: entry.rank,
      provider: c.providerName,
      instance: c.instanceName,
      region: c.regionName,
      specs: { vcpu: c.vcpu, memory_mb: c.memoryMb, storage_gb: c.storageGb },
      price: {
        monthly: monthlyFromMicros(c.monthlyMicros),
        hourly: hourlyFromMicros(c.hourlyMicros),
      },
      match_score: entry.parts.score,
      pros,
      cons,
      id: c.id,
      instance_id: c.instanceId,
      region_code: c.regionCode,
    };
  });
  return {
    requirements: {
      min_memory_mb: requirements.minMemoryMb,
      min_vcpu: requirements.minVcpu,
      breakdown: requirements.breakdown,
    },
    recommendations,
  };
}
