// Echoing a client's value back in an error's `details` (D17a): the echo must never be the
// client's raw structure, so a hostile body (deep nesting, megabyte strings) cannot make the
// error response itself large or fail to serialise.

/** Longest string echoed, in characters (code points, so a surrogate pair is never split). */
export const ECHO_MAX_CHARS = 100;

/**
 * The value to put in `details.value` (or in a list such as `details.invalid`):
 * strings cut to 100 characters; finite numbers and booleans as they are; null (and undefined)
 * as null; an array as the string "array" and any other object as "object" (their JSON type
 * names); non-finite numbers, bigints and anything else as short text.
 */
export function echoValue(value: unknown): unknown {
  switch (typeof value) {
    case 'string':
      return cutString(value);
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'boolean':
      return value;
    case 'undefined':
      return null;
    case 'bigint':
      return cutString(value.toString());
    case 'object':
      if (value === null) return null;
      return Array.isArray(value) ? 'array' : 'object';
    default:
      // symbol, function: cannot come from JSON or a query string; name the type.
      return typeof value;
  }
}

function cutString(text: string): string {
  // Fast path: 100 UTF-16 units hold at most 100 code points.
  if (text.length <= ECHO_MAX_CHARS) return text;
  let out = '';
  let count = 0;
  for (const char of text) {
    if (count === ECHO_MAX_CHARS) break;
    out += char;
    count += 1;
  }
  return out;
}
