// The API JSON (spec 2.1) of one CatalogIndex's records, by position (index in id order), and
// the `[json,json,...]` arrays a page is made of.
//
// Invariants:
//   - a record's USD text is serialised on first use; the on-demand index keeps it (never to
//     change) with its UTF-8 length while the texts it keeps stay within USD_JSON_MAX_BYTES,
//     which holds every text of catalogues up to ~50,000 records (a default start holds ~4 MB),
//     so those pay each serialisation once; beyond it (a world-size catalogue with every option
//     listed, ~1.9 KB a record) a text not kept is serialised per use. Serialising every record
//     at build made the 100,000-record index take 2.3 s and +420 MB (bench:world);
//   - an option's index (D61) and every currency other than USD (D43) go through the memo below,
//     bounded by CONVERTED_JSON_MAX_BYTES, keyed by the currency and rates (moneyKey) and the
//     position, so the same key always gives the same text;
//   - texts are strings on the V8 heap; a page (`arrayBytes`) is written from them straight into
//     the one Buffer the response is sent from, an ASCII text by a plain copy (ADR 0009: a
//     string body cost three more passes over its bytes in Fastify and Node);
//   - one index's texts (memo included) are dropped with the index.
import { LRUCache } from 'lru-cache';
import { moneyView, type MoneyView } from '../money-view.js';
import type { InstanceRow } from '../records.js';
import { toInstanceRecord } from '../instance-json.js';

/** Upper bound of the USD texts the on-demand index keeps, in UTF-8 bytes (JSON is ASCII). */
export const USD_JSON_MAX_BYTES = 64 * 1024 * 1024;

/**
 * Upper bound of the records serialised in currencies other than USD (D43), per index, in bytes
 * (UTF-16 strings: 2 bytes a character, plus the key and bookkeeping): the records a request
 * showed in that currency, and an option's index's USD texts.
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

/** A record's JSON and its length in UTF-8 bytes (equal to its length when it is ASCII). */
interface Text {
  readonly json: string;
  readonly bytes: number;
}

/**
 * `[json,json,...]` as UTF-8 bytes to come: its length, and `writeTo`, which writes it into a
 * Buffer (at least `byteLength` long from `offset`) and returns the offset after it.
 */
export interface JsonBytes {
  readonly byteLength: number;
  writeTo(target: Buffer, offset: number): number;
}

const COMMA = 0x2c;
const OPEN = 0x5b;
const CLOSE = 0x5d;

/** The texts of one array, in order, written as `[a,b,...]`. */
class TextArray implements JsonBytes {
  readonly byteLength: number;
  readonly #texts: readonly Text[];

  constructor(texts: readonly Text[]) {
    this.#texts = texts;
    let bytes = texts.length === 0 ? 2 : texts.length + 1; // brackets and commas
    for (const text of texts) bytes += text.bytes;
    this.byteLength = bytes;
  }

  writeTo(target: Buffer, offset: number): number {
    let at = offset;
    target[at++] = OPEN;
    const texts = this.#texts;
    for (let i = 0; i < texts.length; i++) {
      if (i > 0) target[at++] = COMMA;
      const { json, bytes } = texts[i]!;
      // ASCII (every byte one character) is copied as Latin-1: the same bytes, no encoding.
      at += target.write(json, at, bytes, bytes === json.length ? 'latin1' : 'utf8');
    }
    target[at++] = CLOSE;
    return at;
  }
}

/** Records by position: an array, or an index's priced views of its records (D61). */
export interface PositionedRows {
  readonly length: number;
  at(position: number): InstanceRow | undefined;
}

/** The serialised records of one index; `rows` are the index's records by position. */
export class RecordTexts {
  readonly #rows: PositionedRows;
  /** The USD text of position p once kept; undefined for the whole: kept in the memo only. */
  readonly #kept: (Text | undefined)[] | undefined;
  /** UTF-8 bytes of the USD texts kept in #kept (at most USD_JSON_MAX_BYTES). */
  #bytes = 0;
  /** Records' JSON in other currencies, by `${moneyKey}#${position}`. */
  readonly #converted = new LRUCache<string, Text>({
    maxSize: CONVERTED_JSON_MAX_BYTES,
    sizeCalculation: (text, key) => (text.json.length + key.length) * 2 + 96,
  });

  readonly #maxBytes: number;

  /**
   * `keepUsd` false: USD texts go through the bounded memo too (an option's index, D61).
   * `maxBytes`: the bound of the USD texts kept (tests set a small one).
   */
  constructor(rows: PositionedRows, keepUsd = true, maxBytes = USD_JSON_MAX_BYTES) {
    this.#rows = rows;
    this.#maxBytes = maxBytes;
    this.#kept = keepUsd ? new Array<Text | undefined>(rows.length) : undefined;
  }

  /** UTF-8 bytes of the USD texts kept (not those in the memo). */
  get bytes(): number {
    return this.#bytes;
  }

  /** The USD text of position p, serialised on first use and kept while the bound allows. */
  #usd(p: number): Text {
    const kept = this.#kept![p];
    if (kept !== undefined) return kept;
    const json = JSON.stringify(toInstanceRecord(this.#rows.at(p)!));
    // Measured, which flattens it while young: JSON.stringify may return a rope of parts, and
    // a kept rope's parts outlive two scavenges and are promoted (issue 9: ~30 MB of old-space
    // garbage for 50,000 records); flattened now, the parts die in the next scavenge.
    const text = { json, bytes: Buffer.byteLength(json) };
    if (this.#bytes + text.bytes <= this.#maxBytes) {
      this.#kept![p] = text;
      this.#bytes += text.bytes;
    }
    return text;
  }

  /** The text of position p in `money`'s currency (`prefix` from #prefix). */
  #text(p: number, money: MoneyView | undefined, prefix: string | undefined): Text {
    return prefix === undefined ? this.#usd(p) : this.#memoised(money ?? USD_VIEW, prefix, p);
  }

  /** The memo's key prefix for `money`, or undefined where the kept USD texts serve. */
  #prefix(money: MoneyView | undefined): string | undefined {
    if (money !== undefined && money.currency !== 'USD') return `${moneyKey(money)}#`;
    return this.#kept === undefined ? 'USD#' : undefined;
  }

  /** The USD text of position p. */
  at(p: number): string | undefined {
    if (p < 0 || p >= this.#rows.length) return undefined;
    return this.#text(p, undefined, this.#prefix(undefined)).json;
  }

  /**
   * `[json,json,...]` of these positions, with prices in `money`'s currency (USD when omitted),
   * as UTF-8 bytes to write into a response.
   */
  arrayBytes(positions: ArrayLike<number>, money: MoneyView | undefined): JsonBytes {
    const prefix = this.#prefix(money);
    const texts = new Array<Text>(positions.length);
    for (let i = 0; i < positions.length; i++) texts[i] = this.#text(positions[i]!, money, prefix);
    return new TextArray(texts);
  }

  #memoised(money: MoneyView, prefix: string, p: number): Text {
    const key = prefix + p;
    let text = this.#converted.get(key);
    if (text === undefined) {
      const json = JSON.stringify(toInstanceRecord(this.#rows.at(p)!, money));
      text = { json, bytes: Buffer.byteLength(json) };
      this.#converted.set(key, text);
    }
    return text;
  }

  /** Bytes the other-currency memo holds (at most CONVERTED_JSON_MAX_BYTES). */
  get convertedBytesHeld(): number {
    return this.#converted.calculatedSize;
  }
}
