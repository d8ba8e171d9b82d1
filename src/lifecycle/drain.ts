// Graceful drain (issue 13 item 3). On SIGTERM/SIGINT the process keeps answering: /health says
// 503 `shutting_down` so a balancer stops sending, every response carries `Connection: close`
// so keep-alive clients move to another replica, requests in flight finish, and running syncs
// are aborted (their previous catalogue stays, D22). It exits as soon as nothing is in flight,
// or when SHUTDOWN_GRACE is over, whichever comes first.
import type { Server } from 'node:http';

/** Read by the HTTP layer on every request; set once, never cleared. */
export interface DrainState {
  readonly draining: boolean;
}

export interface Drain extends DrainState {
  /** Counts the requests `server` is answering. */
  track(server: Server): void;
  /** Starts draining; resolves once idle or when `graceMs` is over (`idle` says which). */
  begin(graceMs: number): Promise<{ idle: boolean }>;
}

/**
 * "Idle" means no request in flight for QUIET_MS: clients told to close their connection
 * reconnect at once, and a momentary zero between their requests is not the end of the traffic.
 */
export const QUIET_MS = 500;

/**
 * A request counts as in flight from Node's 'request' event until its response is finished or
 * its connection closed.
 */
export function createDrain(quietMs: number = QUIET_MS): Drain {
  let draining = false;
  let inFlight = 0;
  let quiet: NodeJS.Timeout | undefined;
  let onIdle: (() => void) | undefined;
  const settle = () => {
    clearTimeout(quiet);
    quiet = undefined;
    if (onIdle !== undefined && inFlight === 0) quiet = setTimeout(onIdle, quietMs);
  };
  return {
    get draining() {
      return draining;
    },
    track(server) {
      server.on('request', (_request, response) => {
        inFlight += 1;
        clearTimeout(quiet);
        response.once('close', () => {
          inFlight -= 1;
          settle();
        });
      });
    },
    begin(graceMs) {
      draining = true;
      return new Promise((resolve) => {
        const timer = setTimeout(() => done(false), graceMs);
        const done = (idle: boolean) => {
          clearTimeout(timer);
          clearTimeout(quiet);
          onIdle = undefined;
          resolve({ idle });
        };
        onIdle = () => done(true);
        // Requests whose bytes reached the socket before the signal are read in the next poll
        // phase: start looking for idleness only after it.
        setImmediate(() => setImmediate(settle));
      });
    },
  };
}
