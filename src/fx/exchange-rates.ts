// The exchange rates in use (D44): the last good table, refreshed from the configured ECB
// document with every sync and on the schedule. A failed refresh changes nothing but the health
// report: prices keep being converted at the last good rates.
import { UpstreamError } from '../sync/upstream/upstream-error.js';
import type { EcbRatesAdapter } from './ecb-fetch.js';
import { formatScaled } from '../catalog/exact-decimal.js';
import {
  currenciesOf,
  type LoadedRates,
  type RateSource,
  type RateTable,
} from '../catalog/rate-table.js';

export type RatesStatus = 'healthy' | 'degraded' | 'unhealthy';

/** /health `components.exchange_rates` (D44). */
export interface ExchangeRatesHealth {
  status: RatesStatus;
  /** The ECB reference date of the rates in use, or null when there are none. */
  as_of: string | null;
  source: string | null;
  kind: 'snapshot' | 'live' | null;
  /** ISO date-time of the last successful refresh, or null if none succeeded yet. */
  last_refresh: string | null;
  error?: string;
}

export interface ExchangeRateService {
  /** The last good rates, or undefined when none could ever be read (only USD is offered). */
  current(): LoadedRates | undefined;
  /** The currencies a request may ask for: USD, then the table's codes, sorted. */
  currencies(): readonly string[];
  /** Reads the configured document once; never throws. Concurrent calls share one read. */
  refresh(): Promise<{ ok: boolean; changed: boolean }>;
  health(now?: number): ExchangeRatesHealth;
  /** Called after a refresh that changed the rates (caches holding converted prices). */
  onChange(listener: () => void): () => void;
  /** Aborts a refresh in flight (shutdown). */
  abort(): void;
}

export interface RatesOrigin extends RateSource {
  readonly adapter: EcbRatesAdapter;
}

export interface ExchangeRateServiceDeps {
  /** The configured document (FX_RATES_URL). */
  readonly primary: RatesOrigin;
  /**
   * The bundled recording, read only when the primary has never answered, so a start without
   * network still converts (the health report says no refresh succeeded).
   */
  readonly fallback?: RatesOrigin;
  readonly log: { error(obj: unknown, msg: string): void; info(obj: unknown, msg: string): void };
  readonly now?: () => number;
}

const HOUR_MS = 3_600_000;

function fingerprint(table: RateTable): string {
  const rates = [...table.perEur].map(
    ([code, rate]) => `${code}=${formatScaled(rate.units, rate.scale)}`,
  );
  return `${table.asOf}|${rates.sort().join(',')}`;
}

export function createExchangeRateService(deps: ExchangeRateServiceDeps): ExchangeRateService {
  const now = deps.now ?? Date.now;
  let rates: LoadedRates | undefined;
  let lastSuccessAt: number | undefined;
  let latestFailure: string | undefined;
  let inFlight: Promise<{ ok: boolean; changed: boolean }> | undefined;
  let controller = new AbortController();
  const listeners = new Set<() => void>();

  function adopt(table: RateTable, origin: RateSource): boolean {
    const changed = rates === undefined || fingerprint(rates) !== fingerprint(table);
    rates = { ...table, kind: origin.kind, source: origin.source };
    if (changed) {
      for (const listener of listeners) {
        try {
          listener();
        } catch (error) {
          deps.log.error({ err: error }, 'exchange-rate change listener failed');
        }
      }
    }
    return changed;
  }

  async function readOnce(): Promise<{ ok: boolean; changed: boolean }> {
    const signal = controller.signal;
    try {
      const table = await deps.primary.adapter.fetchRates(signal);
      lastSuccessAt = now();
      latestFailure = undefined;
      const changed = adopt(table, deps.primary);
      deps.log.info({ as_of: table.asOf, changed }, 'exchange rates refreshed');
      return { ok: true, changed };
    } catch (error) {
      latestFailure =
        error instanceof UpstreamError ? error.message : 'the exchange-rate refresh failed';
      deps.log.error({ err: error }, 'exchange-rate refresh failed; keeping the last good rates');
      if (rates === undefined && deps.fallback !== undefined) {
        try {
          const table = await deps.fallback.adapter.fetchRates(signal);
          return { ok: false, changed: adopt(table, deps.fallback) };
        } catch (fallbackError) {
          deps.log.error({ err: fallbackError }, 'bundled exchange rates unreadable');
        }
      }
      return { ok: false, changed: false };
    }
  }

  return {
    current: () => rates,
    currencies: () => currenciesOf(rates),
    refresh() {
      inFlight ??= readOnce().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
    health(at = now()) {
      // D32's rule on the last successful refresh, not on the rates' own date (D44): the ECB
      // publishes on working days only, and the bundled file is old by design.
      const age = lastSuccessAt === undefined ? Infinity : at - lastSuccessAt;
      let status: RatesStatus;
      if (lastSuccessAt === undefined || age > 48 * HOUR_MS) status = 'unhealthy';
      else if (age >= 24 * HOUR_MS || latestFailure !== undefined) status = 'degraded';
      else status = 'healthy';
      const report: ExchangeRatesHealth = {
        status,
        as_of: rates?.asOf ?? null,
        source: rates?.source ?? null,
        kind: rates?.kind ?? null,
        last_refresh: lastSuccessAt === undefined ? null : new Date(lastSuccessAt).toISOString(),
      };
      if (latestFailure !== undefined) report.error = latestFailure;
      else if (lastSuccessAt === undefined) report.error = 'never refreshed';
      return report;
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    abort() {
      controller.abort(new Error('service is shutting down'));
      controller = new AbortController();
    },
  };
}
