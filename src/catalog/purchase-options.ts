// Purchase options (D61): the ways one instance type in one region can be paid for, and AWS's
// spot advice. Vocabulary only: which options a record has and their prices come from the
// provider adapters (src/providers/*); the API's `purchase_option` parameter reads these names.
import { monthlyMicrosFromHourly } from './money.js';

/** Every option name the API knows, in the order it lists them. `on_demand` is the default. */
export const PURCHASE_OPTIONS = [
  'on_demand',
  'spot',
  'reserved_1y',
  'reserved_3y',
  'convertible_1y',
  'convertible_3y',
] as const;
export type PurchaseOption = (typeof PURCHASE_OPTIONS)[number];

export const DEFAULT_PURCHASE_OPTION: PurchaseOption = 'on_demand';

/** Every option but on-demand: the ones an offer carries beside its list price. */
export type OtherPurchaseOption = Exclude<PurchaseOption, 'on_demand'>;
export const OTHER_PURCHASE_OPTIONS: readonly OtherPurchaseOption[] = PURCHASE_OPTIONS.filter(
  (name): name is OtherPurchaseOption => name !== 'on_demand',
);

/**
 * The commitments of D61: AWS Standard Reserved Instances (No Upfront) are `reserved_*`,
 * Convertible ones (No Upfront) `convertible_*`; Google Cloud's resource-based committed use
 * is `reserved_*` too.
 */
export type CommittedPurchaseOption = Exclude<OtherPurchaseOption, 'spot'>;
export const COMMITTED_PURCHASE_OPTIONS: readonly CommittedPurchaseOption[] = [
  'reserved_1y',
  'reserved_3y',
  'convertible_1y',
  'convertible_3y',
];

export function isPurchaseOption(value: unknown): value is PurchaseOption {
  return typeof value === 'string' && (PURCHASE_OPTIONS as readonly string[]).includes(value);
}

/**
 * One option's price for one offer, in integer micro-dollars (D36). For every option but
 * on-demand the monthly price is hourly x 730 rounded to the cent (D61), so it is always made
 * by optionPrice(); on-demand keeps the offer's own monthly price (as published, D36).
 */
export interface OptionPrice {
  readonly hourlyMicros: number;
  readonly monthlyMicros: number;
  /**
   * When the figure was observed upstream, where it differs from the catalogue's own
   * observation (a spot price read from its own feed); absent: the catalogue's (D37).
   */
  readonly observedAt?: Date;
}

/** The price of an option other than on-demand: monthly = hourly x 730, in whole cents. */
export function optionPrice(hourlyMicros: number, observedAt?: Date): OptionPrice {
  const price = { hourlyMicros, monthlyMicros: monthlyMicrosFromHourly(hourlyMicros) };
  return observedAt === undefined ? price : { ...price, observedAt };
}

/** The options other than on-demand that an offer has a price for. */
export type OptionPrices = Readonly<Partial<Record<OtherPurchaseOption, OptionPrice>>>;

/** AWS Spot Instance Advisor's interruption-frequency bands, in its own words and order. */
export const SPOT_INTERRUPTION_BANDS = ['<5%', '5-10%', '10-15%', '15-20%', '>20%'] as const;
export type SpotInterruptionBand = (typeof SPOT_INTERRUPTION_BANDS)[number];

export function isSpotInterruptionBand(value: unknown): value is SpotInterruptionBand {
  return (
    typeof value === 'string' && (SPOT_INTERRUPTION_BANDS as readonly string[]).includes(value)
  );
}

/**
 * AWS's published spot advice for one type in one region (D61 `pricing.spot_advice`): how often
 * AWS says spot capacity was reclaimed over the past month, and its own savings figure against
 * on-demand. It is AWS's figure as published, never turned into a price.
 */
export interface SpotAdvice {
  readonly interruptionBand: SpotInterruptionBand;
  /** Whole percent, 0-100, as AWS states it. */
  readonly savingsPct: number;
  /** When it was observed: the fetch, or the recording's date for the bundled file. */
  readonly observedAt: Date;
  /** Short text naming the feed or recording (D37); never a server path. */
  readonly source: string;
}

/** One option's price on a record as the catalogue holds it (epoch ms for the observation). */
export interface OptionQuote {
  readonly hourlyMicros: number;
  readonly monthlyMicros: number;
  /** Epoch milliseconds at which the figure was observed upstream (D37). */
  readonly observedAt: number;
}

/**
 * Every option a record is sold under, on-demand included (D61 `pricing.options`), in
 * PURCHASE_OPTIONS order. An option's index (CatalogIndex.forOption) reads its prices from here.
 */
export type RecordOptions = Readonly<Partial<Record<PurchaseOption, OptionQuote>>>;

/**
 * The options of an offer priced on-demand at `hourlyMicros`/`monthlyMicros` (monthly as
 * published) with `others` beside it, as a record holds them: `observedAt` (epoch ms) for the
 * figures that carry no observation of their own.
 */
export function recordOptions(
  offer: {
    readonly hourlyMicros: number;
    readonly monthlyMicros: number;
    readonly optionPrices?: OptionPrices;
  },
  observedAt: number,
): RecordOptions {
  const out: Partial<Record<PurchaseOption, OptionQuote>> = {
    on_demand: { hourlyMicros: offer.hourlyMicros, monthlyMicros: offer.monthlyMicros, observedAt },
  };
  for (const name of OTHER_PURCHASE_OPTIONS) {
    const price = offer.optionPrices?.[name];
    if (price !== undefined) {
      out[name] = {
        hourlyMicros: price.hourlyMicros,
        monthlyMicros: price.monthlyMicros,
        observedAt: price.observedAt?.getTime() ?? observedAt,
      };
    }
  }
  return out;
}
