// What a sync changed about one record (D38, D40), independent of storage and HTTP. A record's
// price state is its two prices and whether the provider offers it; a change is a move from
// one state to another that a reader of the catalogue could notice.
import type { ProviderName } from './model.js';
import type { PurchaseOption } from './purchase-options.js';

export const CHANGE_KINDS = [
  'added',
  'removed',
  'returned',
  'price_increased',
  'price_decreased',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export function isChangeKind(value: unknown): value is ChangeKind {
  return typeof value === 'string' && (CHANGE_KINDS as readonly string[]).includes(value);
}

/** Integer micro-dollars (D36). */
export interface Prices {
  readonly hourlyMicros: number;
  readonly monthlyMicros: number;
}

export interface PriceState extends Prices {
  readonly available: boolean;
}

export function samePrices(a: Prices, b: Prices): boolean {
  return a.hourlyMicros === b.hourlyMicros && a.monthlyMicros === b.monthlyMicros;
}

/**
 * The kind of change from `before` (the record's open period, undefined when it has none) to
 * `after` (its state once the sync is applied), or undefined when nothing a reader sees moved.
 * A vanished record keeps its last prices (D15), so prices of a record not offered before or
 * after never count as a change. The monthly price decides the direction; the hourly price only
 * when the monthly one is equal.
 */
export function classifyChange(
  before: PriceState | undefined,
  after: PriceState,
): ChangeKind | undefined {
  if (before === undefined) return after.available ? 'added' : undefined;
  if (before.available && !after.available) return 'removed';
  if (!before.available && after.available) return 'returned';
  if (!after.available || samePrices(before, after)) return undefined;
  const rise =
    after.monthlyMicros !== before.monthlyMicros
      ? after.monthlyMicros > before.monthlyMicros
      : after.hourlyMicros > before.hourlyMicros;
  return rise ? 'price_increased' : 'price_decreased';
}

/**
 * The prices on either side of a change, as the feed shows them: `old` is what was offered
 * before (null when the record was not offered: added, returned), `new` what is offered after
 * (null when it no longer is: removed).
 */
export function changeSides(
  kind: ChangeKind,
  before: Prices | undefined,
  after: Prices,
): { old: Prices | null; new: Prices | null } {
  const pick = (p: Prices): Prices => ({
    hourlyMicros: p.hourlyMicros,
    monthlyMicros: p.monthlyMicros,
  });
  switch (kind) {
    case 'added':
    case 'returned':
      return { old: null, new: pick(after) };
    case 'removed':
      return { old: pick(before ?? after), new: null };
    default:
      return { old: before === undefined ? null : pick(before), new: pick(after) };
  }
}

/** The record a change is about, as the feed names it. */
export interface ChangedInstance {
  /** The record id (as in /instances). */
  readonly id: number;
  readonly provider: ProviderName;
  readonly regionCode: string;
  readonly instanceId: string;
  readonly instanceName: string;
}

/** One stored item of the change feed. */
export interface PriceChange {
  readonly id: number;
  readonly at: Date;
  readonly syncId: string;
  readonly kind: ChangeKind;
  /** D61: the purchase option whose price changed (a record's options change apart). */
  readonly purchaseOption: PurchaseOption;
  readonly instance: ChangedInstance;
  readonly old: Prices | null;
  readonly new: Prices | null;
}

/** One price period of a record (D39). */
export interface PricePeriod extends PriceState {
  readonly validFrom: Date;
  readonly validTo: Date | null;
  /** D61: the purchase option the period prices. */
  readonly purchaseOption: PurchaseOption;
}
