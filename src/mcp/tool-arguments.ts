// A tool's arguments, declared once: each entry is one argument's JSON Schema (what `tools/list`
// shows the model) and its name is what the call is checked against (D66). Adding an argument
// to a tool is one entry in its table. The values themselves are checked by the route's own
// parser (D59), so the schemas here say what to send, briefly, and nothing more.
import { invalidParameter } from '../api/parameter-error.js';
import type { AppError } from '../api/errors.js';
import type { JsonObject } from './tool-schema.js';

/** Argument name -> its JSON Schema (type, a short description, enum or bounds). */
export type ArgumentTable = Readonly<Record<string, JsonObject>>;

/** The JSON Schema of a tool's input: exactly these arguments, `required` among them. */
export function inputSchema(table: ArgumentTable, required: readonly string[] = []): JsonObject {
  return {
    type: 'object',
    properties: table,
    ...(required.length > 0 && { required }),
    additionalProperties: false,
  };
}

/**
 * D66: an argument the tool does not declare, or a `null` (JSON's null is not "not given": an
 * assistant leaves an argument out to leave it unset), refused by name with the allowed names;
 * an array or object where the argument's schema says a scalar, refused by that type.
 */
export function argumentProblem(table: ArgumentTable, args: JsonObject): AppError | undefined {
  const allowed = Object.keys(table);
  for (const [name, value] of Object.entries(args)) {
    if (!Object.hasOwn(table, name)) {
      return invalidParameter({
        parameter: name,
        value,
        reason: `is not an argument of this tool (allowed: ${allowed.join(', ') || 'none'})`,
        allowed,
      });
    }
    if (value === null) {
      return invalidParameter({
        parameter: name,
        value: 'null',
        reason: 'must not be null: leave the argument out to leave it unset',
      });
    }
    const shapeProblem = scalarShapeProblem(name, table[name]!['type'], value);
    if (shapeProblem !== undefined) return shapeProblem;
  }
  return undefined;
}

/** JSON Schema scalar types, as an assistant reads them in an argument's schema. */
const SCALAR_NAMES: Readonly<Record<string, string>> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
};

/**
 * An array or object where the schema says a scalar: refused here, by what the schema says.
 * The route's parser would read it as a parameter given twice, which is not what an assistant
 * did. Several values of a list argument (provider, arch, ...) go in one string, comma-separated.
 */
function scalarShapeProblem(name: string, declared: unknown, value: unknown): AppError | undefined {
  if (typeof value !== 'object' || value === null || typeof declared !== 'string') return undefined;
  const expected = SCALAR_NAMES[declared];
  if (expected === undefined) return undefined;
  const sent = Array.isArray(value) ? 'array' : 'object';
  return invalidParameter({
    parameter: name,
    value: sent,
    reason:
      `must be ${expected}, not a JSON ${sent}` +
      (declared === 'string'
        ? ' (where the argument takes several values: one string, comma-separated)'
        : ''),
  });
}

/** A tool's page size: the default an assistant gets, and the most it may ask for. */
export interface PageSize {
  readonly default: number;
  readonly max: number;
}

/**
 * The arguments with the tool's page size applied: `limit` defaults to `page.default`, and a
 * number above `page.max` is refused as the route refuses one above its own maximum. Anything
 * else in `limit` is left for the route's parser to judge.
 */
export function withPageSize(
  args: JsonObject,
  page: PageSize,
): { ok: true; args: JsonObject } | { ok: false; error: AppError } {
  const limit = args['limit'];
  if (limit === undefined) return { ok: true, args: { ...args, limit: page.default } };
  const number = typeof limit === 'number' ? limit : typeof limit === 'string' ? +limit : NaN;
  if (Number.isFinite(number) && number > page.max) {
    return {
      ok: false,
      error: invalidParameter({
        parameter: 'limit',
        value: limit,
        reason: `must be from 1 to ${page.max}`,
      }),
    };
  }
  return { ok: true, args };
}

/** The `limit` argument of a tool with this page size. */
export function limitArgument(page: PageSize, noun: string): JsonObject {
  return {
    type: 'integer',
    minimum: 1,
    maximum: page.max,
    default: page.default,
    description: `${noun} per page (default ${page.default}, at most ${page.max}).`,
  };
}
