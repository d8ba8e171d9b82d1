// What a tool is, what it needs, and what it answers: the shared vocabulary of src/mcp/.
import type { CatalogIndexHolder } from '../catalog/index/catalog-index-holder.js';
import type { InstanceListing } from '../catalog/instance-listing.js';
import type { ParameterProblem } from '../catalog/query-parameters.js';
import type { ProviderName } from '../catalog/model.js';
import type { Config } from '../config.js';
import type { ExchangeRateService } from '../fx/exchange-rates.js';
import type { HealthService } from '../health/health-service.js';
import { AppError, type ErrorCode, type ErrorDetails } from '../api/errors.js';
import { invalidParameter } from '../api/parameter-error.js';
import type { CatalogStore } from '../storage/catalog-store.js';
import type { ProvenanceNotes } from './provenance.js';
import type { ArgumentTable, PageSize } from './tool-arguments.js';
import type { JsonObject } from './tool-schema.js';

/** The core services the tools call: the same ones the HTTP routes and the CLI call. */
export interface McpDeps {
  readonly listing: InstanceListing;
  readonly catalog: CatalogIndexHolder;
  readonly rates: ExchangeRateService;
  readonly store: CatalogStore;
  readonly health: HealthService;
  /** DATA_STALE_DAYS, for the recommend tool's stale-price cons (D57, D58). */
  readonly config: Pick<Config, 'dataStaleDays'>;
  /** Provider display names as configured (PROVIDER_*_DISPLAY_NAME, D55). */
  readonly displayNames: Readonly<Record<ProviderName, string>>;
  /** Observation dates and sources per provider for the text summaries (D37). */
  readonly provenance: ProvenanceNotes;
  /** Where a failure's real cause goes; the client gets QUERY_FAILED without it. */
  readonly log: { error(obj: unknown, msg: string): void };
}

/** The HTTP endpoint a tool mirrors: its rate limit is the tool's (D59); /health has none. */
export type MirroredEndpoint = '/instances' | '/recommend' | '/health';

export type ToolOutcome =
  | { readonly ok: true; readonly data: JsonObject; readonly summary: string }
  | { readonly ok: false; readonly error: AppError };

export interface ToolDefinition {
  readonly name: string;
  readonly title: string;
  /** For the assistant: when to use the tool, units, currencies, cities, staleness. */
  readonly description: string;
  /** The arguments the tool takes (any other is refused, D66), each with its JSON Schema. */
  readonly arguments: ArgumentTable;
  readonly required?: readonly string[];
  /** The tool's page size, when it pages (`limit`): its default and most. */
  readonly page?: PageSize;
  /** JSON Schema of structuredContent (the route's `data` object), its top level. */
  readonly output: JsonObject;
  readonly mirrors: MirroredEndpoint;
  run(args: JsonObject, deps: McpDeps): Promise<ToolOutcome>;
}

/**
 * Tool arguments as the route's parser sees an HTTP request's parameters: query-string values are
 * text, so numbers and booleans become their text (`10`, `true`). Strings pass as they are; a
 * null, or an array or object for a scalar argument, never gets here (argumentProblem refuses
 * them). A null-prototype object: a `__proto__` argument stays a plain key.
 */
export function asQuery(args: JsonObject): Record<string, unknown> {
  const query = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    query[name] = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
  }
  return query;
}

export function failed(error: AppError): ToolOutcome {
  return { ok: false, error };
}

export function parameterFailure(problem: ParameterProblem): ToolOutcome {
  return failed(invalidParameter(problem));
}

export function codedFailure(
  code: ErrorCode,
  message: string,
  details?: ErrorDetails,
): ToolOutcome {
  return failed(new AppError(code, message, details));
}

/** A store or index failure: logged with its cause; the client gets the route's QUERY_FAILED. */
export function queryFailed(deps: McpDeps, tool: string, error: unknown): ToolOutcome {
  deps.log.error({ err: error, tool }, 'mcp tool query failed');
  return codedFailure('QUERY_FAILED', 'Query execution failed');
}
