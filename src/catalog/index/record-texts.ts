// The API JSON (spec 2.1) of one CatalogIndex's records, by position (index in id order), and
// the `[json,json,...]` arrays a page or /recommend answer is made of.
//
// Invariants:
//   - a record's USD text is serialised on first use; the on-demand index keeps it (never to
//     change) while the texts it keeps stay within USD_JSON_MAX_BYTES, which holds every text of
//     catalogues up to ~50,000 records (a default start holds ~3 MB), so those pay each
//     serialisation once; beyond it (a world-size catalogue with every option listed, ~1.9 KB a
//     record) a text not kept is serialised per use. Serialising every record at build made the
//     100,000-record index take 2.3 s and +420 MB (bench:world);
//   - an option's index (D61) and every currency other than USD (D43) go through the memo below,
//     bounded by CONVERTED_JSON_MAX_BYTES, keyed by the currency and rates (moneyKey) and the
//     position, so the same key always gives the same text;
//   - texts are strings on the V8 heap, never copied into a Buffer (ADR 0009), and one index's
//     texts (memo included) are dropped with the index.
import { LRUCache } from 'lru-cache';
import { moneyView, type MoneyView } from '../money-view.js';
import type { InstanceRow } from '../records.js';
import { toInstanceRecord } from '../instance-json.js';

/** Upper bound of the USD texts the on-demand index keeps, in UTF-8 bytes (JSON is ASCII). */
export const USD_JSON_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Upper bound of the records serialised in currencies other than USD (D43), per index, in bytes
 * (UTF-16 strings: 2 bytes a character, plus the key and bookkeeping). USD is serialised for
 * every record at build; another currency only for the records a request showed in it.
 */
export const CONVERTED_JSON_MAX_BYTES = 16 * 1024 * 1024;

const USD_VIEW = moneyView(undefined, 'USD');

/** Identifies a MoneyView's prices: the same currency and rates give the same JSON. */
function moneyKey(money: MoneyView): string {
  const note = money.note;
  return note === undefined
    ? money.currency
    : `${note.currency}|${note.as_of}|${note.source}|${note.rate}`;
}

/** The serialised records of one index; `rows` are the index's records in id order. */
export class RecordTexts {
  readonly #rows: readonly InstanceRow[];
  /** The USD text of position p once kept; undefined for the whole: kept in the memo only. */
  readonly #json: (string | undefined)[] | undefined;
  /** UTF-8 bytes of the USD texts kept in #json (at most USD_JSON_MAX_BYTES). */
  #bytes = 0;
  /** Records' JSON in other currencies, by `${moneyKey}#${position}`. */
  readonly #converted = new LRUCache<string, string>({
    maxSize: CONVERTED_JSON_MAX_BYTES,
    sizeCalculation: (json, key) => (json.length + key.length) * 2 + 64,
  });

  readonly #maxBytes: number;

  /**
   * `keepUsd` false: USD texts go through the bounded memo too (an option's index, D61).
   * `maxBytes`: the bound of the USD texts kept (tests set a small one).
   */
  constructor(rows: readonly InstanceRow[], keepUsd = true, maxBytes = USD_JSON_MAX_BYTES) {
    this.#rows = rows;
    this.#maxBytes = maxBytes;
    this.#json = keepUsd ? new Array<string | undefined>(rows.length) : undefined;
  }

  /** UTF-8 bytes of the USD texts kept (not those in the memo). */
  get bytes(): number {
    return this.#bytes;
  }

  /** The USD text of position p, serialised on first use and kept while the bound allows. */
  #usd(p: number): string {
    const kept = this.#json![p];
    if (kept !== undefined) return kept;
    const text = JSON.stringify(toInstanceRecord(this.#rows[p]!));
    // Measured, which flattens it while young: JSON.stringify may return a rope of parts, and
    // a kept rope's parts outlive two scavenges and are promoted (issue 9: ~30 MB of old-space
    // garbage for 50,000 records); flattened now, the parts die in the next scavenge.
    const bytes = Buffer.byteLength(text);
    if (this.#bytes + bytes <= this.#maxBytes) {
      this.#json![p] = text;
      this.#bytes += bytes;
    }
    return text;
  }

  /** The USD text of position p. */
  at(p: number): string | undefined {
    if (p < 0 || p >= this.#rows.length) return undefined;
    return this.#json === undefined ? this.#memoised(USD_VIEW, 'USD#', p) : this.#usd(p);
  }

  /**
   * `[json,json,...]` of these positions, with prices in `money`'s currency (USD when omitted).
   */
  array(positions: ArrayLike<number>, money: MoneyView | undefined): string {
    if ((money !== undefined && money.currency !== 'USD') || this.#json === undefined)
      return this.#convertedArray(money ?? USD_VIEW, positions);
    // Concatenated, not joined: `+` on long strings makes a rope (a cons string: two pointers),
    // where a join copies every record's text once more. The rope is flattened once, where
    // the body's length is taken (Fastify's Buffer.byteLength), instead of after a copy.
    if (positions.length === 0) return '[]';
    let out = `[${this.#usd(positions[0]!)}`;
    for (let i = 1; i < positions.length; i++) out += `,${this.#usd(positions[i]!)}`;
    return `${out}]`;
  }

  #convertedArray(money: MoneyView, positions: ArrayLike<number>): string {
    const prefix = `${moneyKey(money)}#`;
    const texts = Array.from(positions, (p) => this.#memoised(money, prefix, p));
    return `[${texts.join(',')}]`;
  }

  #memoised(money: MoneyView, prefix: string, p: number): string {
    const key = prefix + p;
    let text = this.#converted.get(key);
    if (text === undefined) {
      text = JSON.stringify(toInstanceRecord(this.#rows[p]!, money));
      this.#converted.set(key, text);
    }
    return text;
  }

  /** Bytes the other-currency memo holds (at most CONVERTED_JSON_MAX_BYTES). */
  get convertedBytesHeld(): number {
    return this.#converted.calculatedSize;
  }
}
