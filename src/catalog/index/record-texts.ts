// The API JSON (spec 2.1) of one CatalogIndex's records, by position (index in id order), and
// the `[json,json,...]` arrays a page or /recommend answer is made of.
//
// Invariants:
//   - the USD text of every position is serialised once, at build, and never changes (the
//     on-demand index; an option's index, D61, serialises its USD texts on use into the memo
//     below instead: five more copies of every record's text would be most of the heap);
//   - a text in another currency (D43) is serialised on first use and kept in a memo bounded by
//     CONVERTED_JSON_MAX_BYTES, keyed by the currency and rates (moneyKey) and the position, so
//     the same key always gives the same text;
//   - texts are strings on the V8 heap, never copied into a Buffer (ADR 0009), and one index's
//     texts (memo included) are dropped with the index.
import { LRUCache } from 'lru-cache';
import { moneyView, type MoneyView } from '../money-view.js';
import type { InstanceRow } from '../records.js';
import { toInstanceRecord } from '../instance-json.js';

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
  /** The API JSON (USD) of position p, serialised at build; undefined: serialised on use. */
  readonly #json: readonly string[] | undefined;
  /** UTF-8 bytes of all of #json together. */
  readonly bytes: number;
  /** Records' JSON in other currencies, by `${moneyKey}#${position}`. */
  readonly #converted = new LRUCache<string, string>({
    maxSize: CONVERTED_JSON_MAX_BYTES,
    sizeCalculation: (json, key) => (json.length + key.length) * 2 + 64,
  });

  /** `serialiseAll` false: every text, USD too, is serialised on first use into the memo. */
  constructor(rows: readonly InstanceRow[], serialiseAll = true) {
    this.#rows = rows;
    if (!serialiseAll) {
      this.#json = undefined;
      this.bytes = 0;
      return;
    }
    const n = rows.length;
    // Serialise every record once. Kept as strings, not copied into a Buffer: a page is then
    // one string join on the V8 heap (young-generation garbage once sent), where a Buffer per
    // page was an off-heap allocation that pushed V8 into a full Mark-Compact every ~0.3 s
    // under load ("external memory"; docs/performance.md).
    // Measured (flattened) right after it is made: JSON.stringify returns a rope of parts, and
    // a rope kept until a later pass outlives two scavenges, so its parts were promoted and
    // left ~30 MB of old-space garbage for 50,000 records; flattened while young, the parts die
    // in the next scavenge and the flat text is all that is promoted (issue 9).
    const json = new Array<string>(n);
    let bytes = 0;
    for (let p = 0; p < n; p++) {
      const text = JSON.stringify(toInstanceRecord(rows[p]!));
      bytes += Buffer.byteLength(text);
      json[p] = text;
    }
    this.#json = json;
    this.bytes = bytes;
  }

  /** The USD text of position p. */
  at(p: number): string | undefined {
    if (this.#json !== undefined) return this.#json[p];
    return p >= 0 && p < this.#rows.length ? this.#memoised(USD_VIEW, 'USD#', p) : undefined;
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
    const json = this.#json;
    if (positions.length === 0) return '[]';
    let out = `[${json[positions[0]!]!}`;
    for (let i = 1; i < positions.length; i++) out += `,${json[positions[i]!]!}`;
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
