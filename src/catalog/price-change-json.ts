// The change feed and price periods as the API shows them (D39, D40): prices in the requested
// currency (D43; USD by default) rounded as in /instances (D36), times as ISO 8601 UTC.
import { moneyView, type MoneyView } from './money-view.js';
import type { PriceChange, PricePeriod, Prices } from './price-change-model.js';

const USD_VIEW = moneyView(undefined, 'USD');

export interface PriceJson {
  hourly_price: number;
  monthly_price: number;
  /** Present when the feed was asked for in another currency than USD (D43). */
  currency?: string;
}

export interface ChangeItemJson {
  id: number;
  at: string;
  sync_id: string;
  kind: PriceChange['kind'];
  /** D61: the purchase option whose price changed. */
  purchase_option: PriceChange['purchaseOption'];
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
  currency: string;
  available: boolean;
  /** D61: the purchase option the period prices. */
  purchase_option: PricePeriod['purchaseOption'];
}

function priceJson(prices: Prices | null, money: MoneyView): PriceJson | null {
  if (prices === null) return null;
  const json: PriceJson = {
    hourly_price: money.hourly(prices.hourlyMicros),
    monthly_price: money.monthly(prices.monthlyMicros),
  };
  // USD items keep the shape they had before D43 (the currency is implied); others say it.
  if (money.currency !== 'USD') json.currency = money.currency;
  return json;
}

/**
 * Monthly price change in percent of the old price, rounded to 2 decimals; null unless both
 * sides are offered and the old price is not zero. Computed from exact USD micros, so it is the
 * same in every currency (conversion is one factor on both sides).
 */
export function changePct(old: Prices | null, next: Prices | null): number | null {
  if (old === null || next === null || old.monthlyMicros === 0) return null;
  const pct = ((next.monthlyMicros - old.monthlyMicros) * 100) / old.monthlyMicros;
  return Math.round(pct * 100) / 100;
}

export function toChangeItem(change: PriceChange, money: MoneyView = USD_VIEW): ChangeItemJson {
  return {
    id: change.id,
    at: change.at.toISOString(),
    sync_id: change.syncId,
    kind: change.kind,
    purchase_option: change.purchaseOption,
    instance: {
      id: change.instance.id,
      provider: change.instance.provider,
      region_code: change.instance.regionCode,
      instance_id: change.instance.instanceId,
      instance_name: change.instance.instanceName,
    },
    old: priceJson(change.old, money),
    new: priceJson(change.new, money),
    change_pct: changePct(change.old, change.new),
  };
}

export function toPeriodJson(period: PricePeriod, money: MoneyView = USD_VIEW): PeriodJson {
  return {
    valid_from: period.validFrom.toISOString(),
    valid_to: period.validTo === null ? null : period.validTo.toISOString(),
    hourly_price: money.hourly(period.hourlyMicros),
    monthly_price: money.monthly(period.monthlyMicros),
    currency: money.currency,
    available: period.available,
    purchase_option: period.purchaseOption,
  };
}
