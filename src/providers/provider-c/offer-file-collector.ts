// What the offer-file scanner keeps: it hands over the bytes of each record it captured (a root
// scalar, a product, a SKU's on-demand or reserved terms) and the collector decides, parses and
// stores, then joins products to prices at the end. Separate from the byte walking in offer-file-scanner.ts.
import { Buffer } from 'node:buffer';
import { UpstreamError } from '../../sync/upstream/upstream-error.js';
import {
  PRODUCT_PREFILTER_PATTERNS,
  classifyProduct,
  extractOnDemandHourlyUsd,
  extractReservedHourlyUsd,
  type KeptProduct,
  type ReservedHourlyUsd,
} from './offer-records.js';

/** Root-level scalars of the file, when present and strings. */
export interface OfferFileMetadata {
  readonly formatVersion?: string;
  readonly offerCode?: string;
  readonly version?: string;
  readonly publicationDate?: string;
}

export const METADATA_KEYS: ReadonlySet<string> = new Set([
  'formatVersion',
  'offerCode',
  'version',
  'publicationDate',
]);

export interface OfferFileScanResult {
  readonly metadata: OfferFileMetadata;
  /** Products that passed the filter, in file order, each with its on-demand hourly prices. */
  readonly products: KeptProduct[];
  /** The file had a `products` object / a `terms.OnDemand` object. */
  readonly sawProducts: boolean;
  readonly sawOnDemand: boolean;
  /** Every product record seen. */
  readonly productCount: number;
  /** Records that could have been ours but had the wrong shape (see classifyProduct). */
  readonly invalidProducts: number;
  /** The file had a `terms.Reserved` object (absent in old files and trimmed snapshots). */
  readonly sawReserved?: boolean;
  /**
   * Reserved records of kept SKUs that were not JSON, plus one for a second `terms.Reserved`
   * or one that is not an object: their SKUs get no reserved prices, nothing else is lost.
   */
  readonly invalidReserved?: number;
  readonly bytes: number;
}

/** The one error of a bad offer file, with the absolute byte offset where it was found. */
export function offerFileError(at: number, message: string): UpstreamError {
  return new UpstreamError('UPSTREAM_INVALID_DATA', `offer file, byte ${at}: ${message}`);
}

const PATTERNS = PRODUCT_PREFILTER_PATTERNS.map((p) => Buffer.from(p, 'utf8'));
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The record's bytes as JSON (strict UTF-8), or UPSTREAM_INVALID_DATA. */
function parseRecord(bytes: Uint8Array, key: string, at: number): unknown {
  try {
    return JSON.parse(utf8.decode(bytes));
  } catch {
    throw offerFileError(at, `malformed JSON in record "${key.slice(0, 64)}"`);
  }
}

/** The product's bytes hold every prefilter pattern (see PRODUCT_PREFILTER_PATTERNS). */
function mayBeKept(bytes: Uint8Array): boolean {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  for (const pattern of PATTERNS) {
    if (view.indexOf(pattern) < 0) return false;
  }
  return true;
}

export class OfferFileCollector {
  private readonly metadata: Record<string, string> = {};
  private readonly kept = new Map<
    string,
    { attributes: KeptProduct['attributes']; raw?: unknown }
  >();
  private readonly prices = new Map<string, string[]>();
  private readonly rawOnDemand = new Map<string, unknown>();
  private readonly reserved = new Map<string, ReservedHourlyUsd>();
  private readonly rawReserved = new Map<string, unknown>();
  private reservedUnusable = false;
  private invalidReserved = 0;
  private productsDone = false;
  private productCount = 0;
  private invalidProducts = 0;

  constructor(
    private readonly upstreamRegionCode: string | undefined,
    private readonly retainRaw: boolean,
  ) {}

  /** The `products` object has closed: every product is known from now on. */
  productsComplete(): void {
    this.productsDone = true;
  }

  /**
   * Whether `terms.OnDemand.<sku>` needs reading. Once every product is known, only kept SKUs'
   * terms do; before that (terms first) every SKU's do, and their prices wait for the join.
   */
  wantsOnDemand(sku: string): boolean {
    return !this.productsDone || this.kept.has(sku);
  }

  /** Whether `terms.Reserved.<sku>` needs reading: as for on-demand terms. */
  wantsReserved(sku: string): boolean {
    return !this.reservedUnusable && this.wantsOnDemand(sku);
  }

  /**
   * `terms.Reserved` is not one object (a second one, or another kind of value): which of two
   * records is right cannot be known, so no reserved price of this file is used.
   */
  reservedUnreadable(): void {
    this.reservedUnusable = true;
    this.invalidReserved++;
    this.reserved.clear();
    this.rawReserved.clear();
  }

  addMetadata(key: string, bytes: Uint8Array, at: number): void {
    const value = parseRecord(bytes, key, at);
    if (typeof value === 'string') this.metadata[key] = value;
  }

  /**
   * A product record. Products whose bytes lack a prefilter pattern cannot be kept and are not
   * parsed, unless they hold an escape (`hasEscape`), which could hide a pattern.
   */
  addProduct(key: string, bytes: Uint8Array, hasEscape: boolean, at: number): void {
    this.productCount++;
    if (!hasEscape && !mayBeKept(bytes)) return;
    const value = parseRecord(bytes, key, at);
    const verdict = classifyProduct(key, value, this.upstreamRegionCode);
    if (verdict.kind === 'invalid') this.invalidProducts++;
    if (verdict.kind !== 'kept') return;
    this.kept.set(verdict.sku, {
      attributes: verdict.attributes,
      ...(this.retainRaw ? { raw: value } : {}),
    });
  }

  /** A SKU's on-demand terms: only the hourly USD prices of its JRTCKXETXF term are kept. */
  addOnDemand(sku: string, bytes: Uint8Array, at: number): void {
    const value = parseRecord(bytes, sku, at);
    const prices = extractOnDemandHourlyUsd(sku, value);
    if (prices.length > 0) this.prices.set(sku, prices);
    if (this.retainRaw) this.rawOnDemand.set(sku, value);
  }

  /**
   * A SKU's reserved terms: only the No Upfront hourly prices are kept (see
   * extractReservedHourlyUsd). A record that is not JSON costs that SKU its reserved prices,
   * never the file: reserved prices are an option beside the on-demand price.
   */
  addReserved(sku: string, bytes: Uint8Array): void {
    let value: unknown;
    try {
      value = JSON.parse(utf8.decode(bytes));
    } catch {
      this.invalidReserved++;
      return;
    }
    const prices = extractReservedHourlyUsd(sku, value);
    if (Object.keys(prices).length > 0) this.reserved.set(sku, prices);
    if (this.retainRaw) this.rawReserved.set(sku, value);
  }

  /** Kept products joined to their prices. */
  result(scan: {
    sawProducts: boolean;
    sawOnDemand: boolean;
    sawReserved: boolean;
    bytes: number;
  }): OfferFileScanResult {
    const products: KeptProduct[] = [];
    for (const [sku, entry] of this.kept) {
      const hourlyUsd = this.prices.get(sku) ?? [];
      const reservedUsd = this.reserved.get(sku);
      const product: KeptProduct = {
        sku,
        attributes: entry.attributes,
        hourlyUsd,
        ...(reservedUsd !== undefined ? { reservedUsd } : {}),
      };
      if (!this.retainRaw) {
        products.push(product);
        continue;
      }
      const rawReserved = this.rawReserved.get(sku);
      products.push({
        ...product,
        raw: {
          product: entry.raw,
          onDemand: this.rawOnDemand.get(sku),
          ...(rawReserved !== undefined ? { reserved: rawReserved } : {}),
        },
      });
    }
    return {
      metadata: { ...this.metadata },
      products,
      sawProducts: scan.sawProducts,
      sawOnDemand: scan.sawOnDemand,
      productCount: this.productCount,
      invalidProducts: this.invalidProducts,
      sawReserved: scan.sawReserved,
      invalidReserved: this.invalidReserved,
      bytes: scan.bytes,
    };
  }
}
