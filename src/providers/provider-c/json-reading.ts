// Reading AWS's JSON documents (offer files, the spot price feed, the Spot Instance Advisor):
// untrusted input, read only through own properties of plain objects.

export type JsonObject = Readonly<Record<string, unknown>>;

/** A JSON object (not an array, not null), readable by key. */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `record[key]` only when it is the record's own property (never the prototype's). */
export function own(record: JsonObject, key: string): unknown {
  return Object.hasOwn(record, key) ? record[key] : undefined;
}

/** An EC2 instance type as AWS writes it: `family.size` (`c7i.xlarge`, `u7in-16tb.224xlarge`). */
export const INSTANCE_TYPE = /^[a-z][a-z0-9-]*\.[a-z0-9-]+$/;
