// A streaming scanner for AWS EC2 offer files (upstream-formats.md §3.2). A region file is
// 100-450 MB: too large for one string (V8 caps strings near 512 MiB) and far too large to
// materialise (JSON.parse of us-east-1 takes ~2.5 GB). The scanner walks the bytes as they
// arrive, in chunks split anywhere (inside strings, escapes, numbers, multi-byte UTF-8), and
// materialises only:
//   - each `products.<sku>` record that can match the filter (a few KB each), and
//   - `terms.OnDemand.<sku>` and `terms.Reserved.<sku>` for the SKUs kept (or for every SKU, if
//     terms come first).
// Everything else (the reserved terms of other SKUs: most of the file, other products,
// attributesList) is skipped by tracking string state and bracket depth only. Skipped regions
// are checked for balanced, matching brackets and terminated strings, not for full JSON grammar;
// every level the scanner walks (root, products, terms, terms.OnDemand, terms.Reserved) and
// every record it parses is checked fully. A reserved record that is not JSON costs its SKU its
// reserved prices, not the file (offer-file-collector.ts).
// Memory is bounded by what is kept plus one record (at most maxRecordBytes).
// This file walks the structure (root, products, terms, terms.OnDemand/Reserved) key by key; the byte loop
// over a value is value-walker.ts, and what is kept of a captured record is offer-file-collector.ts.

import { Buffer } from 'node:buffer';
import { ValueWalker, WalkError, concatParts } from './value-walker.js';
import {
  METADATA_KEYS,
  OfferFileCollector,
  offerFileError,
  type OfferFileScanResult,
} from './offer-file-collector.js';

export type { OfferFileMetadata, OfferFileScanResult } from './offer-file-collector.js';

export interface OfferFileScannerOptions {
  /** Upstream region code of the file; products of other codes (Local Zones) are dropped. */
  readonly upstreamRegionCode?: string;
  /** Largest single record (product or on-demand block) accepted, in bytes. Default 1 MiB. */
  readonly maxRecordBytes?: number;
  /** Keep the whole product and on-demand records of kept SKUs (snapshot refresh). */
  readonly retainRaw?: boolean;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const COLON = 0x3a;
const COMMA = 0x2c;

// Parser states. S_VALUE_BODY runs the skip/capture loop over a string, object or array value.
const S_BEFORE_ROOT = 0;
const S_OBJECT_START = 1;
const S_KEY = 2;
const S_COLON = 3;
const S_VALUE = 4;
const S_AFTER_VALUE = 5;
const S_AFTER_COMMA = 6;
const S_VALUE_BODY = 7;
const S_LITERAL = 8;
const S_DONE = 9;

// The objects the scanner walks key by key.
const C_ROOT = 0;
const C_PRODUCTS = 1;
const C_TERMS = 2;
const C_ON_DEMAND = 3;
const C_RESERVED = 4;
type Context =
  typeof C_ROOT | typeof C_PRODUCTS | typeof C_TERMS | typeof C_ON_DEMAND | typeof C_RESERVED;

// What a finished value body is for.
const V_SKIP = 0;
const V_META = 1;
const V_PRODUCT = 2;
const V_ON_DEMAND = 3;
const V_RESERVED = 4;
type ValuePurpose =
  typeof V_SKIP | typeof V_META | typeof V_PRODUCT | typeof V_ON_DEMAND | typeof V_RESERVED;

const MAX_KEY_BYTES = 4096;
const MAX_META_BYTES = 4096;
const MAX_LITERAL_BYTES = 64;
const LITERAL = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/;
const utf8 = new TextDecoder('utf-8', { fatal: true });

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
}

/**
 * push() each chunk in order, then end() for the result. Throws UpstreamError
 * UPSTREAM_INVALID_DATA on malformed or truncated JSON, or a record over the size cap.
 */
export class OfferFileScanner {
  private readonly maxRecordBytes: number;
  private readonly collector: OfferFileCollector;

  private state = S_BEFORE_ROOT;
  private readonly stack: Context[] = [];
  /** Bytes before the current chunk: error messages give absolute offsets. */
  private offset = 0;

  // Key being read, and the last complete key of the current object.
  private keyParts: Uint8Array[] = [];
  private keyLength = 0;
  private keyEscaped = false;
  private keyPendingSkip = 0;
  private key = '';

  // The value being walked, and what it is for.
  private readonly walker = new ValueWalker();
  private purpose: ValuePurpose = V_SKIP;
  private valueKey = '';
  private literal = '';

  // Which walked objects have been seen.
  private readonly seenRootKeys = new Set<string>();
  private sawProducts = false;
  private sawOnDemand = false;
  private sawReserved = false;

  constructor(options: OfferFileScannerOptions = {}) {
    this.maxRecordBytes = options.maxRecordBytes ?? 1024 * 1024;
    this.collector = new OfferFileCollector(options.upstreamRegionCode, options.retainRaw ?? false);
  }

  /**
   * Scans the next bytes of the file. Keeps no reference to `chunk` once it returns (a record
   * split across chunks is copied), so the caller may reuse the chunk's memory.
   */
  push(chunk: Uint8Array): void {
    const n = chunk.length;
    let i = 0;
    while (i < n) {
      switch (this.state) {
        case S_VALUE_BODY:
          i = this.valueBody(chunk, i);
          break;
        case S_KEY:
          i = this.keyBody(chunk, i);
          break;
        case S_LITERAL:
          i = this.literalBody(chunk, i);
          break;
        default: {
          const c = chunk[i] ?? 0;
          i = isWhitespace(c) ? i + 1 : this.structural(c, i);
        }
      }
    }
    this.offset += n;
  }

  /** The result, once every byte was pushed; throws if the document is not complete. */
  end(): OfferFileScanResult {
    if (this.state !== S_DONE) {
      this.fail(this.offset, 'unexpected end of data: the offer file is truncated');
    }
    return this.collector.result({
      sawProducts: this.sawProducts,
      sawOnDemand: this.sawOnDemand,
      sawReserved: this.sawReserved,
      bytes: this.offset,
    });
  }

  private fail(at: number, message: string): never {
    throw offerFileError(at, message);
  }

  /**
   * One non-whitespace byte at index i in a structural state. Returns the index to continue
   * from: i + 1 when the byte was consumed, i when a value body or literal starts there.
   */
  private structural(c: number, i: number): number {
    const at = this.offset + i;
    switch (this.state) {
      case S_BEFORE_ROOT:
        if (c !== LBRACE) this.fail(at, 'the document is not a JSON object');
        this.stack.push(C_ROOT);
        this.state = S_OBJECT_START;
        return i + 1;
      case S_OBJECT_START:
        if (c === RBRACE) this.closeObject();
        else if (c === QUOTE) this.startKey();
        else this.fail(at, 'expected a key or "}"');
        return i + 1;
      case S_AFTER_COMMA:
        if (c !== QUOTE) this.fail(at, 'expected a key after ","');
        this.startKey();
        return i + 1;
      case S_COLON:
        if (c !== COLON) this.fail(at, 'expected ":" after a key');
        this.state = S_VALUE;
        return i + 1;
      case S_AFTER_VALUE:
        if (c === COMMA) this.state = S_AFTER_COMMA;
        else if (c === RBRACE) this.closeObject();
        else this.fail(at, 'expected "," or "}"');
        return i + 1;
      case S_VALUE:
        return this.startValue(c, i);
      case S_DONE:
        return this.fail(at, 'data after the end of the document');
      default:
        return this.fail(at, 'internal scanner state');
    }
  }

  private startKey(): void {
    this.keyParts = [];
    this.keyLength = 0;
    this.keyEscaped = false;
    this.keyPendingSkip = 0;
    this.state = S_KEY;
  }

  /** Reads key bytes up to the closing quote (the opening one is already consumed). */
  private keyBody(chunk: Uint8Array, start: number): number {
    const n = chunk.length;
    let i = start + this.keyPendingSkip;
    this.keyPendingSkip = 0;
    let closed = false;
    while (i < n) {
      const c = chunk[i] ?? 0;
      if (c === QUOTE) {
        closed = true;
        break;
      }
      if (c === BACKSLASH) {
        this.keyEscaped = true;
        i += 2;
      } else {
        i++;
      }
    }
    const end = Math.min(i, n);
    if (end > start) {
      const piece = chunk.subarray(start, end);
      this.keyParts.push(closed ? piece : new Uint8Array(piece));
    }
    this.keyLength += end - start;
    if (this.keyLength > MAX_KEY_BYTES) this.fail(this.offset + end, 'object key too long');
    if (!closed) {
      this.keyPendingSkip = i - n;
      return n;
    }
    this.key = this.decodeString(concatParts(this.keyParts, this.keyLength), this.offset + i);
    this.keyParts = [];
    this.state = S_COLON;
    return i + 1;
  }

  /** The text of a JSON string body (without its quotes), validated. */
  private decodeString(bytes: Uint8Array, at: number): string {
    let ascii = true;
    for (let k = 0; k < bytes.length; k++) {
      const c = bytes[k] ?? 0;
      if (c < 0x20) this.fail(at, 'control character in a string');
      if (c >= 0x80 || c === BACKSLASH) ascii = false;
    }
    if (ascii) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('latin1');
    try {
      return JSON.parse(`"${utf8.decode(bytes)}"`) as string;
    } catch {
      return this.fail(at, 'invalid string (escape or UTF-8)');
    }
  }

  /** The first byte of a value: decide whether to walk into it, capture it or skip it. */
  private startValue(c: number, i: number): number {
    const context = this.stack[this.stack.length - 1];
    const key = this.key;
    let walkInto: Context | undefined;
    let purpose: ValuePurpose = V_SKIP;
    if (context === C_ROOT) {
      if (key === 'products' || key === 'terms' || METADATA_KEYS.has(key)) {
        if (this.seenRootKeys.has(key)) this.fail(this.offset + i, `duplicate key "${key}"`);
        this.seenRootKeys.add(key);
      }
      if (key === 'products') walkInto = C_PRODUCTS;
      else if (key === 'terms') walkInto = C_TERMS;
      else if (METADATA_KEYS.has(key)) purpose = V_META;
    } else if (context === C_TERMS) {
      if (key === 'OnDemand') {
        if (this.sawOnDemand) this.fail(this.offset + i, 'duplicate key "OnDemand"');
        walkInto = C_ON_DEMAND;
      } else if (key === 'Reserved') {
        // Reserved prices are an option beside the on-demand price: a second or malformed
        // `Reserved` drops them (skipped as any other value), never the file.
        if (this.sawReserved || c !== LBRACE) this.collector.reservedUnreadable();
        else walkInto = C_RESERVED;
        this.sawReserved = true;
      }
    } else if (context === C_RESERVED) {
      purpose = this.collector.wantsReserved(key) ? V_RESERVED : V_SKIP;
    } else if (context === C_PRODUCTS) {
      purpose = V_PRODUCT;
    } else if (context === C_ON_DEMAND) {
      // Once every product is known, on-demand terms of other SKUs are skipped unread.
      purpose = this.collector.wantsOnDemand(key) ? V_ON_DEMAND : V_SKIP;
    }

    if (walkInto !== undefined) {
      if (c !== LBRACE) this.fail(this.offset + i, `"${key}" is not an object`);
      if (walkInto === C_PRODUCTS) this.sawProducts = true;
      if (walkInto === C_ON_DEMAND) this.sawOnDemand = true;
      this.stack.push(walkInto);
      this.state = S_OBJECT_START;
      return i + 1;
    }
    if (c === LBRACE || c === LBRACKET || c === QUOTE) {
      this.purpose = purpose;
      this.valueKey = key;
      const limit = purpose === V_META ? MAX_META_BYTES : this.maxRecordBytes;
      this.walker.begin(purpose !== V_SKIP, limit, key);
      // The body loop consumes the opening byte itself, so a capture starts with it.
      this.state = S_VALUE_BODY;
      return i;
    }
    this.literal = '';
    this.state = S_LITERAL;
    return i;
  }

  /** Runs the value walker; a finished capture goes to the collector. */
  private valueBody(chunk: Uint8Array, start: number): number {
    let i: number;
    try {
      i = this.walker.walk(chunk, start, this.offset);
    } catch (err) {
      if (err instanceof WalkError) this.fail(err.at, err.message);
      throw err;
    }
    if (this.walker.done) {
      this.state = S_AFTER_VALUE;
      if (this.purpose !== V_SKIP) this.finishCapture(this.walker.captured(), this.offset + i);
    }
    return i;
  }

  /** A bare number, true, false or null: read to its delimiter and check it. */
  private literalBody(chunk: Uint8Array, start: number): number {
    const n = chunk.length;
    let i = start;
    while (i < n) {
      const c = chunk[i] ?? 0;
      if (isWhitespace(c) || c === COMMA || c === RBRACE || c === RBRACKET) break;
      i++;
    }
    this.literal += Buffer.from(chunk.buffer, chunk.byteOffset + start, i - start).toString(
      'latin1',
    );
    if (this.literal.length > MAX_LITERAL_BYTES) this.fail(this.offset + i, 'literal too long');
    if (i < n) {
      if (!LITERAL.test(this.literal)) this.fail(this.offset + start, 'invalid literal');
      this.state = S_AFTER_VALUE;
    }
    return i;
  }

  private closeObject(): void {
    const closed = this.stack.pop();
    if (closed === C_PRODUCTS) this.collector.productsComplete();
    this.state = this.stack.length === 0 ? S_DONE : S_AFTER_VALUE;
  }

  private finishCapture(bytes: Uint8Array, at: number): void {
    if (this.purpose === V_META) this.collector.addMetadata(this.valueKey, bytes, at);
    else if (this.purpose === V_PRODUCT) {
      this.collector.addProduct(this.valueKey, bytes, this.walker.sawEscape, at);
    } else if (this.purpose === V_ON_DEMAND) this.collector.addOnDemand(this.valueKey, bytes, at);
    else if (this.purpose === V_RESERVED) this.collector.addReserved(this.valueKey, bytes);
  }
}
