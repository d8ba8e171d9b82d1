// Purchase options (D61) in the page's words. The option is part of the view like the currency:
// `purchase_option` in the URL (left out for on-demand, the default), sent to the API as it is,
// and carried by the menu and the links between the views that price by it.
import type { InstanceRecord } from './model';

export type PurchaseOption = InstanceRecord['pricing']['purchase_option'];

/** The API's option names in D61's order, which is also the order the page lists them in. */
export const PURCHASE_OPTIONS = [
  'on_demand',
  'spot',
  'reserved_1y',
  'reserved_3y',
  'convertible_1y',
  'convertible_3y',
] as const satisfies readonly PurchaseOption[];

export const OPTION_LABEL: Readonly<Record<PurchaseOption, string>> = {
  on_demand: 'On-demand',
  spot: 'Spot',
  reserved_1y: '1-year reserved',
  reserved_3y: '3-year reserved',
  convertible_1y: '1-year convertible',
  convertible_3y: '3-year convertible',
};

/** What each option is, in one sentence (under the selector). */
export const OPTION_MEANING: Readonly<Record<PurchaseOption, string>> = {
  on_demand: 'The list price: billed by the hour, no commitment.',
  spot:
    'Spare capacity at a lower price that the provider can take back at short notice (AWS: two ' +
    'minutes); AWS spot prices are listed only where this server reads AWS’s spot price feed.',
  reserved_1y:
    'AWS Standard Reserved Instances (no upfront payment) or Google Cloud committed use, 1 year: ' +
    'a lower hourly rate, billed every hour of the year whether used or not.',
  reserved_3y:
    'AWS Standard Reserved Instances (no upfront payment) or Google Cloud committed use, 3 years: ' +
    'a lower hourly rate, billed every hour of the three years whether used or not.',
  convertible_1y:
    'AWS Convertible Reserved Instances, 1 year, no upfront payment: can be exchanged for ' +
    'another type; billed every hour of the year.',
  convertible_3y:
    'AWS Convertible Reserved Instances, 3 years, no upfront payment: can be exchanged for ' +
    'another type; billed every hour of the three years.',
};

/** The URL's option when the API knows it, else undefined (main.tsx says so). */
export function knownPurchaseOption(value: string | null): PurchaseOption | undefined {
  return (PURCHASE_OPTIONS as readonly string[]).includes(value ?? '')
    ? (value as PurchaseOption)
    : undefined;
}

/** The option the view prices by: the URL's, or on-demand. */
export function purchaseOptionOf(params: URLSearchParams): PurchaseOption {
  return knownPurchaseOption(params.get('purchase_option')) ?? 'on_demand';
}

/** `purchase_option=all`: the change feed's value for the items of every option (D61). */
export const ALL_OPTIONS = 'all';

/** What Changes lists: one option's changes, or every option's (`all`, Changes only). */
export type FeedOption = PurchaseOption | typeof ALL_OPTIONS;

/** Changes' choice: the URL's option or `all`, else on-demand (as purchaseOptionOf). */
export function feedOptionOf(params: URLSearchParams): FeedOption {
  return params.get('purchase_option') === ALL_OPTIONS ? ALL_OPTIONS : purchaseOptionOf(params);
}

/** The URL value for an option: on-demand, the default, is left out so links stay short. */
export function optionParam(option: string): string | undefined {
  return option === 'on_demand' ? undefined : option;
}

/** Sets `purchase_option` on an API query unless it is the API's default (on-demand). */
export function withPurchaseOption(query: URLSearchParams, option: FeedOption): void {
  if (option !== 'on_demand') query.set('purchase_option', option);
}

export type OptionPrice = InstanceRecord['pricing']['options'][string];

/** The record's price under `option`, or undefined when it is not sold under it. */
export function optionPrice(
  record: Pick<InstanceRecord, 'pricing'>,
  option: PurchaseOption,
): OptionPrice | undefined {
  return record.pricing.options[option];
}

/** The options the record is sold under, in D61's order. */
export function recordOptions(record: Pick<InstanceRecord, 'pricing'>): PurchaseOption[] {
  return PURCHASE_OPTIONS.filter((o) => record.pricing.options[o] !== undefined);
}

export type SpotAdvice = NonNullable<InstanceRecord['pricing']['spot_advice']>;

/**
 * AWS's Spot Instance Advisor figure as AWS publishes it, never as a price:
 * "AWS Spot Instance Advisor: interruptions 5-10%, savings 61% (observed 2025-06-28)".
 */
export function spotAdviceText(advice: SpotAdvice): string {
  return `AWS Spot Instance Advisor: interruptions ${advice.interruption_band}, savings ${advice.savings_pct}% (observed ${advice.observed_at.slice(0, 10)})`;
}
