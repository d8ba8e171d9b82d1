// D46's row as the API shows it, in the requested currency (D43): each cell's prices are the
// record's /instances prices, converted and rounded the same way (one MoneyView for both).
import type { MoneyView } from '../../fx/convert.js';
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

export function toInstanceTypeJson(type: InstanceType, money: MoneyView): InstanceTypeJson {
  const prices: Record<string, RegionPriceJson> = {};
  for (const cell of type.cells) {
    prices[cell.regionCode] = {
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
    cheapest_region: type.cheapest.regionCode,
    min_monthly_price: money.monthly(type.minMonthlyMicros),
    max_monthly_price: money.monthly(type.maxMonthlyMicros),
    spread_pct: spreadPct(type.minMonthlyMicros, type.maxMonthlyMicros),
  };
}
