// JSON text in the layout of AWS Price List Bulk files: two-space indents, `"key" : value`,
// empty objects as `{ }`, arrays on one line as `[ a, b ]` (the Jackson default pretty printer
// the bulk API uses). Used by the snapshot generator, the snapshot refresh and the sync bench.

type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };

export function isJsonObject(value: Json): value is { readonly [key: string]: Json } {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Maps an unknown value (parsed upstream JSON) into Json, or throws for anything else. */
export function asJson(value: unknown): Json {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (Array.isArray(value)) return value.map((item: unknown) => asJson(item));
  if (typeof value === 'object') {
    const out: Record<string, Json> = {};
    for (const [key, item] of Object.entries(value)) out[key] = asJson(item);
    return out;
  }
  throw new TypeError(`not JSON data: ${typeof value}`);
}

/**
 * `value` as AWS-style text. `depth` is the indent level the value starts at (its closing
 * bracket is indented to it), so a fragment can be written inside a larger document.
 */
export function formatAwsJson(value: Json, depth = 0): string {
  if (Array.isArray(value)) {
    if (value.length === 0) return '[ ]';
    return `[ ${value.map((item: Json) => formatAwsJson(item, depth)).join(', ')} ]`;
  }
  if (isJsonObject(value)) {
    const keys = Object.keys(value);
    if (keys.length === 0) return '{ }';
    const inner = '  '.repeat(depth + 1);
    const lines = keys.map(
      (key) => `${inner}${JSON.stringify(key)} : ${formatAwsJson(value[key] ?? null, depth + 1)}`,
    );
    return `{\n${lines.join(',\n')}\n${'  '.repeat(depth)}}`;
  }
  return JSON.stringify(value);
}

export type { Json };
