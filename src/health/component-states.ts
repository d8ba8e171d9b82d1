import type { ComponentWatch } from '../infra/component-watch.js';

// Failures nobody awaits (a PostgreSQL connection dropped while idle, a Redis connection lost,
// the invalidation bus unable to re-subscribe) are retried in the background, often twice a
// second. They are logged once per state change, never per retry: one error line when a
// component starts failing, one info line when it works again. /health shows the current
// failure and the last one seen, so an operator finds what the log said without the log.

/** What /health shows of a component's background failures. */
export interface ComponentProblem {
  readonly message: string;
  /** The error's code (`ECONNREFUSED`, a PostgreSQL SQLSTATE such as `57P01`) when it has one. */
  readonly code?: string;
  /** ISO time the failure was first seen (for `last_error`: when it started). */
  readonly since: string;
}

export interface ComponentReport {
  /** Set while the component is failing. */
  readonly failing?: ComponentProblem;
  /** The most recent failure, kept after recovery. */
  readonly lastError?: ComponentProblem;
}

export interface ComponentLog {
  info(obj: unknown, msg: string): void;
  error(obj: unknown, msg: string): void;
}

interface State {
  /** Sources failing now (a component may have several connections), each with its problem. */
  readonly failing: Map<string, ComponentProblem>;
  lastError: ComponentProblem | undefined;
  failingSince: number | undefined;
}

function problemOf(error: unknown, at: number): ComponentProblem {
  const message = error instanceof Error ? error.message : String(error);
  const code =
    error instanceof Error && 'code' in error && typeof error.code === 'string'
      ? error.code
      : undefined;
  return {
    message: message === '' ? (error instanceof Error ? error.name : 'error') : message,
    ...(code !== undefined && { code }),
    since: new Date(at).toISOString(),
  };
}

export class ComponentStates {
  readonly #states = new Map<string, State>();

  constructor(
    private readonly log: ComponentLog,
    private readonly now: () => number = Date.now,
  ) {}

  #state(component: string): State {
    let state = this.#states.get(component);
    if (state === undefined) {
      state = { failing: new Map(), lastError: undefined, failingSince: undefined };
      this.#states.set(component, state);
    }
    return state;
  }

  /**
   * `source` of `component` failed (e.g. the `bus-subscriber` connection of `redis`). Logs only
   * when the component was working until now; a source already failing keeps its first problem.
   */
  failed(component: string, source: string, error: unknown): void {
    const state = this.#state(component);
    if (state.failing.has(source)) return;
    const at = this.now();
    const problem = problemOf(error, at);
    const wasWorking = state.failing.size === 0;
    state.failing.set(source, problem);
    state.lastError = problem;
    if (wasWorking) {
      state.failingSince = at;
      this.log.error({ component, source, err: error }, `${component} failing`);
    }
  }

  /** `source` of `component` works (again). Logs when that makes the whole component work. */
  recovered(component: string, source: string): void {
    const state = this.#states.get(component);
    if (state === undefined || !state.failing.delete(source) || state.failing.size > 0) return;
    const downMs = this.now() - (state.failingSince ?? this.now());
    state.failingSince = undefined;
    this.log.info({ component, down_ms: downMs }, `${component} recovered`);
  }

  /** The component's watch, for the infrastructure code that sees its connections. */
  watch(component: string): ComponentWatch {
    return {
      failed: (source, error) => this.failed(component, source, error),
      recovered: (source) => this.recovered(component, source),
    };
  }

  report(component: string): ComponentReport {
    const state = this.#states.get(component);
    if (state === undefined) return {};
    const failing = state.failing.values().next();
    return {
      ...(failing.done !== true && { failing: failing.value }),
      ...(state.lastError !== undefined && { lastError: state.lastError }),
    };
  }
}
