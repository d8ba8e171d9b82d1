// Whole POST /recommend answers, memoised per catalogue index and normalised request (issue 9).
// A recommendation is a pure function of the index (one committed catalogue version), the
// request's normalised fields and, in another currency, the one exchange rate used (D43): the
// same inputs always give the same bytes, so they are computed once and kept, bounded in bytes.
// Only a request asked again is kept: the first asking leaves its key and a shared marker, so a
// stream of requests asked once (a budget slider) does not fill the old generation with ~5 KB
// answers that are never read again.
// The memo belongs to one index: a new index (a new version) starts an empty memo, so an answer
// is never served for a version other than the one it was computed from.
import { LRUCache } from 'lru-cache';
import type { ExchangeRateNote, MoneyView } from '../catalog/money-view.js';
import type { RecommendData } from './recommend.js';
import type { RecommendRequest } from './validate-request.js';

/** Upper bound of the heap the memo holds: answers, keys and bookkeeping (see entryBytes). */
export const RECOMMEND_MEMO_MAX_BYTES = 8 * 1024 * 1024;

/**
 * The key of everything an answer depends on besides the index. Stack order is kept (the
 * breakdown lists the names in the order first given, D27); providers and regions are filters
 * over sets, so their order and duplicates do not matter (sorted, de-duplicated). Another
 * currency adds the rate used (its note names the currency, date, source and rate).
 */
export function recommendKey(request: RecommendRequest, money: MoneyView): string {
  const set = (list: readonly string[] | undefined) =>
    list === undefined ? null : [...new Set(list)].sort();
  const note = money.note;
  return JSON.stringify([
    request.stack,
    request.scale,
    request.budgetMaxMicros ?? null,
    request.limit,
    set(request.providers),
    set(request.regions),
    money.currency,
    note === undefined ? null : [note.as_of, note.source, note.rate],
    set(request.architectures),
    set(request.allocations),
    request.rankBy,
    request.purchaseOption,
  ]);
}

/** One memoised answer: the body around its query time (which is per request). */
export interface MemoisedAnswer {
  readonly head: string;
  readonly tail: string;
}

/** A request asked once, whose answer is not kept (yet): one shared object. */
const SEEN = Object.freeze({ seen: true as const });
type Entry = MemoisedAnswer | typeof SEEN;

/**
 * Heap bytes of one entry beyond its characters: the cache's bookkeeping (its Map entry and
 * array slots) and the key's string header. Measured about 128 with --expose-gc on Node 22
 * (test/support/memo-heap-child.ts), rounded up.
 */
const ENTRY_BYTES = 144;
/** More for a kept answer: its object, the head's two cons cells and the strings' headers. */
const ANSWER_BYTES = 160;
/** A character V8 cannot store in one byte (it keeps a string with none at one byte each). */
const WIDE_CHARACTER = /[\u0100-\uffff]/;

/** Bytes of the characters of strings stored together: one each, two when any is wide. */
function characterBytes(...texts: string[]): number {
  let length = 0;
  let width = 1;
  for (const text of texts) {
    length += text.length;
    if (width === 1 && WIDE_CHARACTER.test(text)) width = 2;
  }
  return length * width;
}

/**
 * What an entry holds on the heap: the key and the answer's characters, at the width V8 stores
 * them, and the bookkeeping. Within a tenth of the measured heap
 * (src/recommend/recommend-memo.test.ts).
 */
function entryBytes(entry: Entry, key: string): number {
  const keyBytes = characterBytes(key) + ENTRY_BYTES;
  if (entry === SEEN) return keyBytes;
  const answer = entry as MemoisedAnswer;
  return keyBytes + characterBytes(answer.head, answer.tail) + ANSWER_BYTES;
}

export class RecommendMemo {
  readonly #maxBytes: number;
  #owner: object | undefined;
  #answers: LRUCache<string, Entry> | undefined;

  constructor(maxBytes: number = RECOMMEND_MEMO_MAX_BYTES) {
    this.#maxBytes = maxBytes;
  }

  /** The answer memoised for `key` under this index, if any. */
  get(index: object, key: string): MemoisedAnswer | undefined {
    const entry = this.#owner === index ? this.#answers?.get(key) : undefined;
    return entry === undefined || entry === SEEN ? undefined : (entry as MemoisedAnswer);
  }

  /**
   * Offers the answer computed for `key`: kept when the key was asked before under this index,
   * otherwise only the key is remembered (the next asking keeps its answer).
   */
  offer(index: object, key: string, answer: MemoisedAnswer): void {
    if (this.#maxBytes <= 0) return;
    if (this.#owner !== index || this.#answers === undefined) {
      this.#owner = index;
      this.#answers = new LRUCache<string, Entry>({
        maxSize: this.#maxBytes,
        sizeCalculation: entryBytes,
      });
    }
    const answers = this.#answers;
    answers.set(key, answers.has(key) ? answer : SEEN);
  }

  /** Entries held, answers and keys asked once (for tests). */
  get size(): number {
    return this.#answers?.size ?? 0;
  }

  /** Bytes held by the memo's own measure (at most maxBytes). */
  get bytesHeld(): number {
    return this.#answers?.calculatedSize ?? 0;
  }
}

/**
 * A computed answer as the JSON of the response (spec 4.4) around its query time: `head`, the
 * milliseconds, `tail`. JSON.stringify writes members in the order the objects were built,
 * which for RecommendData and the exchange-rate note is the order of the response schema
 * (test/http/recommend-bytes.test.ts holds them to it): these are the bytes the schema's
 * serializer gives, at half its cost.
 */
export function answerAround(
  data: RecommendData,
  exchangeRate: ExchangeRateNote | undefined,
): MemoisedAnswer {
  return {
    head: `{"success":true,"data":${JSON.stringify(data)},"meta":{"query_time_ms":`,
    tail: exchangeRate === undefined ? '}}' : `,"exchange_rate":${JSON.stringify(exchangeRate)}}}`,
  };
}
