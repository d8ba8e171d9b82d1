// Exchange rates on the schedule (D44). Rates live in each process, so every replica refreshes
// its own on the SYNC_INTERVAL timer, whether or not it is the one that syncs the providers, and
// when it sees a catalogue committed by a sync anywhere (src/services.ts).
import { MAX_TIMER_DELAY_MS } from '../infra/timers.js';
import type { ExchangeRateService } from './exchange-rates.js';

/** Refreshes every `intervalMs` (0: never). Returns a stop function. */
export function scheduleRateRefresh(rates: ExchangeRateService, intervalMs: number): () => void {
  if (intervalMs <= 0) return () => undefined;
  // refresh() never throws: a failure is logged and kept for /health.
  const timer = setInterval(() => void rates.refresh(), Math.min(intervalMs, MAX_TIMER_DELAY_MS));
  timer.unref();
  return () => clearInterval(timer);
}
