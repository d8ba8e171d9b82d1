// The scanner's hot loop: walks one JSON string, object or array value to its end, chunk by
// chunk, tracking only string state (with escapes) and bracket depth, and optionally capturing
// its bytes. This is where nearly all of an offer file's bytes go (terms.Reserved is skipped
// here), so it works on the bytes in place: no per-byte calls, no strings.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const LBRACE = 0x7b;
const RBRACE = 0x7d;
const LBRACKET = 0x5b;
const RBRACKET = 0x5d;
const MAX_DEPTH = 256;

/** `parts` joined (the single part itself when there is one). */
export function concatParts(parts: readonly Uint8Array[], total: number): Uint8Array {
  if (parts.length === 1 && parts[0] !== undefined) return parts[0];
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** What went wrong, at which absolute byte offset: the scanner turns it into its error. */
export class WalkError extends Error {
  constructor(
    readonly at: number,
    message: string,
  ) {
    super(message);
  }
}

export class ValueWalker {
  private depth = 0;
  private inString = false;
  /** Bytes to skip at the start of the next chunk: the byte a chunk-ending backslash escapes. */
  private pendingSkip = 0;
  private readonly brackets = new Uint8Array(MAX_DEPTH);
  private capturing = false;
  private parts: Uint8Array[] = [];
  private length = 0;
  private limit = 0;
  private label = '';
  /** The value held a backslash escape somewhere. */
  sawEscape = false;
  /** Set by walk(): the value ended within the chunk just walked. */
  done = false;

  /** Starts a value; when `capture`, its bytes are kept, at most `limit` of them. */
  begin(capture: boolean, limit: number, label: string): void {
    this.depth = 0;
    this.inString = false;
    this.pendingSkip = 0;
    this.sawEscape = false;
    this.done = false;
    this.capturing = capture;
    this.parts = [];
    this.length = 0;
    this.limit = limit;
    this.label = label;
  }

  /**
   * Walks `chunk` from `start` (its first byte at absolute offset `offset`); returns the index
   * after the bytes consumed, which is the chunk's end unless the value ended (`done`). Keeps
   * no view of `chunk` afterwards: an unfinished capture is copied.
   */
  walk(chunk: Uint8Array, start: number, offset: number): number {
    const n = chunk.length;
    let i = start + this.pendingSkip;
    this.pendingSkip = 0;
    let depth = this.depth;
    let inString = this.inString;
    let sawEscape = this.sawEscape;
    const brackets = this.brackets;
    let done = false;
    outer: while (i < n) {
      if (inString) {
        for (;;) {
          if (i >= n) break outer;
          const c = chunk[i];
          if (c === QUOTE) break;
          if (c === BACKSLASH) {
            sawEscape = true;
            i += 2;
          } else {
            i++;
          }
        }
        i++;
        inString = false;
        if (depth === 0) {
          done = true;
          break;
        }
        continue;
      }
      const c = chunk[i++];
      if (c === QUOTE) {
        inString = true;
      } else if (c === LBRACE || c === LBRACKET) {
        if (depth === MAX_DEPTH) throw new WalkError(offset + i - 1, 'nesting too deep');
        brackets[depth++] = c;
      } else if (c === RBRACE || c === RBRACKET) {
        // '{' + 2 === '}' and '[' + 2 === ']'.
        if (depth === 0 || brackets[--depth] !== c - 2) {
          throw new WalkError(offset + i - 1, 'mismatched bracket');
        }
        if (depth === 0) {
          done = true;
          break;
        }
      }
    }
    if (i > n) {
      this.pendingSkip = i - n;
      i = n;
    }
    this.depth = depth;
    this.inString = inString;
    this.sawEscape = sawEscape;
    this.done = done;
    if (this.capturing) {
      const piece = chunk.subarray(start, i);
      this.length += piece.length;
      if (this.length > this.limit) {
        throw new WalkError(offset + i, `record "${this.label}" larger than ${this.limit} bytes`);
      }
      // Unfinished: a copy, since the caller may reuse the chunk's memory.
      this.parts.push(done ? piece : new Uint8Array(piece));
    }
    return i;
  }

  /** The captured bytes of the value that just ended (valid until the next begin()). */
  captured(): Uint8Array {
    const bytes = concatParts(this.parts, this.length);
    this.parts = [];
    return bytes;
  }
}
