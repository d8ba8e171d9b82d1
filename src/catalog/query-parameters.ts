// The one reader of query-string parameters (D17, D17a) for GET /instances, /instance-types,
// /changes, /instances/{id}/history, the MCP tools that mirror them and the CLI (whose options
// become the same parameters). A parameter is described by a spec (its kind and bounds); reading
// checks the value sent against it and returns the typed value, or throws a ParameterError whose
// problem is the INVALID_PARAMETER details {parameter, value, reason[, allowed]}.
//
// Rules every spec shares:
// - a parameter given more than once (the query parser then hands an array) is invalid: D17
//   "a parameter given twice is invalid", whatever the values; no parameter is repeatable;
// - an empty value (`?limit=`) is a value like any other, checked against the spec (so it is
//   refused by every kind, since none accepts the empty text); only an absent parameter takes
//   the caller's default;
// - specs are read in the order they are listed, and the first problem is the one reported.
import { MAX_CLIENT_DOLLARS, parseMoneyBound } from './money.js';

export interface ParameterProblem {
  readonly parameter: string;
  /** The value as sent (a string, or the list when the parameter was repeated). */
  readonly value: unknown;
  readonly reason: string;
  readonly allowed?: readonly string[];
}

/** A problem found while reading; `attempt` turns it into a result. */
export class ParameterError extends Error {
  constructor(readonly problem: ParameterProblem) {
    super(problem.reason);
  }
}

export type Parsed<T> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problem: ParameterProblem };

/** Runs a parse that throws ParameterError; any other error propagates. */
export function attempt<T>(parse: () => T): Parsed<T> {
  try {
    return { ok: true, value: parse() };
  } catch (error) {
    if (error instanceof ParameterError) return { ok: false, problem: error.problem };
    throw error;
  }
}

/** The query as the HTTP layer (or a tool, or the CLI) hands it over: name to value(s). */
export type RawQuery = Readonly<Record<string, unknown>>;

/** A whole decimal number from `min` to `max`. */
export interface IntSpec {
  readonly kind: 'int';
  readonly min: number;
  readonly max: number;
}
/** A non-negative plain decimal no greater than 1e9 (so x 1024 or x 1e6 stays exact). */
export interface DecimalSpec {
  readonly kind: 'decimal';
}
/** A money bound, read by the one money parser (money.ts) into whole micro-units. */
export interface MoneySpec {
  readonly kind: 'money';
}
/** One of `allowed`, exact (D17: enums are exact and lower case). */
export interface EnumSpec<T extends string> {
  readonly kind: 'enum';
  readonly allowed: readonly T[];
}
/** `true` or `false`. */
export interface BooleanSpec {
  readonly kind: 'boolean';
}
/** A comma-separated list of `allowed` items, duplicates dropped (D53, D46, D56). */
export interface ListSpec<T extends string> {
  readonly kind: 'list';
  readonly allowed: readonly T[];
  /** What the items are, plural, for "must be <items> separated by single commas". */
  readonly items: string;
  /** Appended to every list problem, in parentheses: what the parameter takes. */
  readonly hint: string;
  readonly maxChars: number;
  /** `given`: as sent; `allowed`: in the order of `allowed` (one spelling, one query). */
  readonly order: 'given' | 'allowed';
  /** A value without a comma is read as an enum (D17's `region`, before lists existed). */
  readonly loneItemAsEnum?: boolean;
}
/** Free text turned into a value by `parse` (undefined: refused with `reason`). */
export interface TextSpec<T> {
  readonly kind: 'text';
  readonly parse: (text: string) => T | undefined;
  readonly reason: string;
}
/** Never accepted on this endpoint, in any form (`reason` says why or what to use instead). */
export interface RefusedSpec {
  readonly kind: 'refused';
  readonly reason: string;
}

export type ParameterSpec =
  | IntSpec
  | DecimalSpec
  | MoneySpec
  | EnumSpec<string>
  | BooleanSpec
  | ListSpec<string>
  | TextSpec<unknown>
  | RefusedSpec;

export type ParameterValue<S> = S extends IntSpec | DecimalSpec | MoneySpec
  ? number
  : S extends EnumSpec<infer T>
    ? T
    : S extends BooleanSpec
      ? boolean
      : S extends ListSpec<infer T>
        ? readonly T[]
        : S extends TextSpec<infer T>
          ? T
          : never;

export type ParameterValues<S extends Readonly<Record<string, ParameterSpec>>> = {
  readonly [K in keyof S]: ParameterValue<S[K]> | undefined;
};

export const int = (min: number, max: number): IntSpec => ({ kind: 'int', min, max });
export const decimal: DecimalSpec = { kind: 'decimal' };
export const money: MoneySpec = { kind: 'money' };
export const boolean: BooleanSpec = { kind: 'boolean' };
export const oneOf = <T extends string>(allowed: readonly T[]): EnumSpec<T> => ({
  kind: 'enum',
  allowed,
});
export const listOf = <T extends string>(spec: Omit<ListSpec<T>, 'kind'>): ListSpec<T> => ({
  kind: 'list',
  ...spec,
});
export const text = <T>(parse: (text: string) => T | undefined, reason: string): TextSpec<T> => ({
  kind: 'text',
  parse,
  reason,
});
export const refused = (reason: string): RefusedSpec => ({ kind: 'refused', reason });

const WHOLE = /^\d+$/;
const DECIMAL = /^\d+(?:\.\d+)?$/;
const BOOLEANS = ['true', 'false'] as const;
const NOT_ALLOWED = 'is not one of the allowed values';

function fail(problem: ParameterProblem): never {
  throw new ParameterError(problem);
}

/** Reads one parameter: undefined when absent, else its value by `spec` (or a ParameterError). */
export function readParameter<S extends ParameterSpec>(
  raw: RawQuery,
  name: string,
  spec: S,
): ParameterValue<S> | undefined {
  const sent = raw[name];
  if (sent === undefined) return undefined;
  if (spec.kind === 'refused') fail({ parameter: name, value: sent, reason: spec.reason });
  if (typeof sent !== 'string') {
    fail({ parameter: name, value: sent, reason: 'must be given at most once' });
  }
  return valueOf(name, sent, spec) as ParameterValue<S>;
}

/** Reads every parameter of `specs`, in their order; absent ones are undefined. */
export function readParameters<S extends Readonly<Record<string, ParameterSpec>>>(
  raw: RawQuery,
  specs: S,
): ParameterValues<S> {
  const values: Record<string, unknown> = {};
  for (const name in specs) values[name] = readParameter(raw, name, specs[name]!);
  return values as ParameterValues<S>;
}

/** D17: `min_*` greater than `max_*` is invalid (reported on the min parameter). */
export function requireNotAbove(
  raw: RawQuery,
  min: { name: string; value: number | undefined },
  max: { name: string; value: number | undefined },
): void {
  if (min.value !== undefined && max.value !== undefined && min.value > max.value) {
    fail({
      parameter: min.name,
      value: raw[min.name],
      reason: `must not be greater than ${max.name}`,
    });
  }
}

function valueOf(name: string, sent: string, spec: Exclude<ParameterSpec, RefusedSpec>): unknown {
  switch (spec.kind) {
    case 'int': {
      if (!WHOLE.test(sent))
        fail({ parameter: name, value: sent, reason: 'must be a whole number' });
      const value = Number(sent);
      if (value < spec.min || value > spec.max) {
        fail({ parameter: name, value: sent, reason: `must be from ${spec.min} to ${spec.max}` });
      }
      return value;
    }
    case 'decimal':
      if (!DECIMAL.test(sent) || sent.length > 20 || Number(sent) > 1e9) {
        fail({
          parameter: name,
          value: sent,
          reason: 'must be a non-negative decimal number no greater than 1000000000',
        });
      }
      return Number(sent);
    case 'money': {
      const micros = parseMoneyBound(sent);
      if (micros === null) {
        fail({
          parameter: name,
          value: sent,
          reason: `must be a non-negative decimal number no greater than ${MAX_CLIENT_DOLLARS}`,
        });
      }
      return micros;
    }
    case 'enum':
      return member(name, sent, spec.allowed);
    case 'boolean':
      return member(name, sent, BOOLEANS) === 'true';
    case 'list':
      return list(name, sent, spec);
    case 'text': {
      const value = spec.parse(sent);
      if (value === undefined) fail({ parameter: name, value: sent, reason: spec.reason });
      return value;
    }
  }
}

function member<T extends string>(name: string, sent: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(sent)) {
    fail({ parameter: name, value: sent, reason: NOT_ALLOWED, allowed });
  }
  return sent as T;
}

function list(name: string, sent: string, spec: ListSpec<string>): readonly string[] {
  if (spec.loneItemAsEnum === true && !sent.includes(',')) {
    return [member(name, sent, spec.allowed)];
  }
  const problem = (reason: string) =>
    fail({
      parameter: name,
      value: sent,
      reason: `${reason} (${spec.hint})`,
      allowed: spec.allowed,
    });
  if (sent.length > spec.maxChars) problem(`must be at most ${spec.maxChars} characters`);
  const given = new Set<string>();
  for (const item of sent.split(',')) {
    if (item === '') problem(`must be ${spec.items} separated by single commas`);
    if (!spec.allowed.includes(item)) problem(`"${item.slice(0, 40)}" ${NOT_ALLOWED}`);
    given.add(item);
  }
  return spec.order === 'given' ? [...given] : spec.allowed.filter((item) => given.has(item));
}
