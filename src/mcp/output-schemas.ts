// The top level of each tool's structuredContent (the route's `data`), as its output schema. The
// fields inside are the HTTP API's (docs/api.md) and reach the model in the result's JSON text;
// listing them all here would more than double what `tools/list` costs an assistant's context.
import type { JsonObject } from './tool-schema.js';

type Kind = 'object' | 'array' | 'string or null';

/** An object schema with these top-level fields, all required unless listed as optional. */
function topLevel(fields: Readonly<Record<string, Kind>>, optional: readonly string[] = []) {
  const properties = Object.fromEntries(
    Object.entries(fields).map(([name, kind]) => [
      name,
      kind === 'array'
        ? { type: 'array', items: { type: 'object' } }
        : { type: kind === 'object' ? 'object' : ['string', 'null'] },
    ]),
  );
  const required = Object.keys(fields).filter((name) => !optional.includes(name));
  return { type: 'object', properties, required } satisfies JsonObject;
}

export const INSTANCES_OUTPUT = topLevel({
  instances: 'array',
  pagination: 'object',
  metadata: 'object',
});

export const INSTANCE_TYPES_OUTPUT = topLevel({
  instance_types: 'array',
  pagination: 'object',
  metadata: 'object',
});

/** `summary` is D67's: candidates, those within budget, the cheapest meeting every requirement. */
export const RECOMMEND_OUTPUT = topLevel({
  requirements: 'object',
  recommendations: 'array',
  summary: 'object',
});

/** `metadata.exchange_rate` when another currency was asked for. */
export const HISTORY_OUTPUT = topLevel(
  { instance: 'object', history: 'array', metadata: 'object' },
  ['metadata'],
);

export const CHANGES_OUTPUT = topLevel(
  { changes: 'array', next_cursor: 'string or null', summary: 'object', metadata: 'object' },
  ['summary', 'metadata'],
);

export const FRESHNESS_OUTPUT = topLevel({ providers: 'array', exchange_rates: 'object' }, [
  'exchange_rates',
]);
