// The change feed and price periods as the API shows them (D39, D40): prices rounded as in
// /instances (D36), times as ISO 8601 UTC.
import { hourlyFromMicros, monthlyFromMicros } from '../catalog/money.js';
import type { PriceChange, PricePeriod, Prices } from './change-model.js';

export interface PriceJson {
  hourly_price: number;
  monthly_price: number;
}

export interface ChangeItemJson {
  id: number;
  at: string;
  sync_id: string;
  kind: PriceChange['kind'];
  instance: {
    id: number;
    provider: string;
    region_code: string;
    instance_id: string;
    instance_name: string;
  };
  old: PriceJson | null;
  new: PriceJson | null;
  change_pct: number | null;
}

export interface PeriodJson {
  valid_from: string;
  valid_to: string | null;
  hourly_price: number;
  monthly_price: number;
  currency: 'USD';
  available: boolean;
}

function priceJson(prices: Prices | null): PriceJson | null {
  return prices === null
    ? null
    : {
        hourly_price: hourlyFromMicros(prices.hourlyMicros),
        monthly_price: monthlyFromMicros(prices.monthlyMicros),
      };
}

/**
 * Monthly price change in percent of the old price, rounded to 2 decimals; null unless both
 * sides are offered and the old price is not zero. Computed from exact micros.
 */
export function changePct(old: Prices | null, next: Prices | null): number | null {
  if (old === null || next === null || old.monthlyMicros === 0) return null;
  const pct = ((next.monthlyMicros - old.monthlyMicros) * 100) / old.monthlyMicros;
  return Math.round(pct * 100) / 100;
}

export function toChangeItem(change: PriceChange): ChangeItemJson {
  return {
    id: change.id,
    at: change.at.toISOString(),
    sync_id: change.syncId,
    kind: change.kind,
    instance: {
      id: change.instance.id,
      provider: change.instance.provider,
      region_code: change.instance.regionCode,
      instance_id: change.instance.instanceId,
      instance_name: change.instance.instanceName,
    },
    old: priceJson(change.old),
    new: priceJson(change.new),
    change_pct: changePct(change.old, change.new),
  };
}

export function toPeriodJson(period: PricePeriod): PeriodJson {
  return {
    valid_from: period.validFrom.toISOString(),
    valid_to: period.validTo === null ? null : period.validTo.toISOString(),
    hourly_price: hourlyFromMicros(period.hourlyMicros),
    monthly_price: monthlyFromMicros(period.monthlyMicros),
    currency: 'USD',
    available: period.available,
  };
}
