// A tool's input and output schemas (argument-tables.ts, output-schemas.ts) handed to the SDK in
// the Standard Schema form it accepts. Validation is deliberately a pass-through: argument names
// are checked by tool-arguments.ts and values by the routes' own parsers (D59: "the code is ours,
// not a schema library's"), and structured results are the routes' `data`, whose shape the tests
// check against these schemas with the SDK client's validator.
import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';

export type JsonObject = Record<string, unknown>;

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
