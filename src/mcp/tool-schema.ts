// A tool's input and output schemas, taken from the route schemas (src/http/schemas: TypeBox, so
// already JSON Schema) and handed to the SDK in the Standard Schema form it accepts. Validation is
// deliberately a pass-through: arguments are checked by the routes' own parsers (D59: "the code is
// ours, not a schema library's"), and structured results are the routes' `data`, whose shape the
// tests check against these schemas with the SDK client's validator.
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { TSchema } from 'typebox';

export type JsonObject = Record<string, unknown>;

/**
 * The schema as plain JSON with every `$ref` to a named route schema (`InstanceRecord`...) replaced
 * by that schema, so a tool's schema stands alone (MCP clients have no shared definitions).
 */
export function toJsonSchema(
  schema: TSchema,
  named: Readonly<Record<string, TSchema>> = {},
): JsonObject {
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== 'object') return value;
    const object = value as JsonObject;
    const ref = object['$ref'];
    if (typeof ref === 'string') {
      const target = named[ref];
      if (target === undefined) throw new Error(`tool schema: no schema named ${ref}`);
      return resolve(target);
    }
    const copy: JsonObject = {};
    // `$id` names a schema in the OpenAPI document; inlined, it would clash with itself.
    // `examples` are documentation of the HTTP API and only lengthen what a client downloads.
    for (const [key, item] of Object.entries(object)) {
      if (key !== '$id' && key !== 'examples') copy[key] = resolve(item);
    }
    return copy;
  };
  // JSON round trip first: TypeBox keeps its own markers as non-enumerable properties.
  return resolve(JSON.parse(JSON.stringify(schema))) as JsonObject;
}

/**
 * The SDK's schema form for a JSON schema, accepting any object: the tool's handler parses it
 * with the route's parser, which answers bad values with our error codes. A missing `arguments`
 * is an empty object, as an HTTP request without parameters.
 */
export function passThrough(jsonSchema: JsonObject): StandardSchemaWithJSON<JsonObject> {
  return {
    '~standard': {
      version: 1,
      vendor: 'cloudprice',
      validate: (value: unknown) =>
        value === undefined || value === null
          ? { value: {} }
          : typeof value === 'object' && !Array.isArray(value)
            ? { value: value as JsonObject }
            : { issues: [{ message: 'arguments must be a JSON object' }] },
      jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
    },
  };
}
