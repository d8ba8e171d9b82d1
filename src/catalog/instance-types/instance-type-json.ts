// D46's row as the API shows it, in the requested currency (D43): each cell's prices are the
// record's /instances prices, converted and rounded the same way (one MoneyView for both).
import type { MoneyView } from '../money-view.js';
import { cityOfRegion } from '../model.js';
import type { InstanceTypeColumns } from './instance-types-query.js';
import { spreadPct, type InstanceType } from './pivot.js';

export interface RegionPriceJson {
  id: number;
  hourly_price: number;
  monthly_price: number;
}

export interface InstanceTypeJson {
  provider: string;
  instance_id: string;
  instance_name: string;
  vcpu: number;
  memory_mb: number;
  gpu_count: number;
  instance_family: string;
  prices: Record<string, RegionPriceJson>;
  cheapest_region: string;
  min_monthly_price: number;
  max_monthly_price: number;
  spread_pct: number | null;
}

/**
 * `columns` (D56): `prices` and `cheapest_region` name regions by code, or by city slug (a
 * provider has at most one region per city, so no two cells of a type share a city).
 */
export function toInstanceTypeJson(
  type: InstanceType,
  money: MoneyView,
  columns: InstanceTypeColumns = 'region',
): InstanceTypeJson {
  const column = (regionCode: string) =>
    columns === 'city' ? cityOfRegion(regionCode)! : regionCode;
  const prices: Record<string, RegionPriceJson> = {};
  for (const cell of type.cells) {
    prices[column(cell.regionCode)] = {
      id: cell.id,
      hourly_price: money.hourly(cell.hourlyMicros),
      monthly_price: money.monthly(cell.monthlyMicros),
    };
  }
  return {
    provider: type.provider,
    instance_id: type.instanceId,
    instance_name: type.specs.instanceName,
    vcpu: type.specs.vcpu,
    memory_mb: type.specs.memoryMb,
    gpu_count: type.specs.gpuCount,
    instance_family: type.specs.family,
    prices,
    cheapest_region: column(type.cheapest.regionCode),
    min_monthly_price: money.monthly(type.minMonthlyMicros),
    max_monthly_price: money.monthly(type.maxMonthlyMicros),
    spread_pct: spreadPct(type.minMonthlyMicros, type.maxMonthlyMicros),
  };
}
