// Graceful drain (issue 13 item 3, issue 22 item 9). On SIGTERM/SIGINT the process stops
// accepting connections, answers every request it has received, and closes each keep-alive
// connection after its last answer, so that no request the server accepted is reset:
// - the listening socket closes at once: a new connection is refused (ECONNREFUSED), which a
//   client or balancer can always retry elsewhere, since nothing of its request was sent;
// - every response from then on carries `Connection: close` (requests in flight at the signal
//   included, when their headers are not sent yet), and Node closes the connection after it;
//   /health says 503 `shutting_down` on a connection that is still open;
// - a connection with no request in flight is closed once it has been idle for IDLE_CLOSE_MS:
//   a client sending continuously has its next request on the wire well before that and gets
//   it answered (with `Connection: close`), while a quiet keep-alive connection is released;
// - it is done when no connection is left, or when the grace period is over (the caller then
//   closes what is still open).
import { Server as NetServer, type Socket } from 'node:net';
import type { Server, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';

/** Read by the HTTP layer on every request; set once, never cleared. */
export interface DrainState {
  readonly draining: boolean;
}

export interface Drain extends DrainState {
  /** Follows the connections and requests of `server`; call before it listens. */
  track(server: Server): void;
  /**
   * Starts draining; resolves once every connection is closed (`idle`) or when `graceMs` is
   * over (not `idle`: connections are still open).
   */
  begin(graceMs: number): Promise<{ idle: boolean }>;
}

/**
 * How long a connection with no request in flight stays open during the drain. Closing an idle
 * keep-alive connection races with a request the client may be writing at that moment; a
 * client that has sent nothing for this long is not sending continuously.
 */
export const IDLE_CLOSE_MS = 500;

/** How often the drain looks for connections idle for IDLE_CLOSE_MS. */
const SWEEP_MS = 50;

interface Connection {
  /** Responses not finished yet (more than one only for pipelined requests). */
  readonly responses: Set<ServerResponse>;
  /** When the last response finished, or the connection was accepted (performance.now()). */
  idleSince: number;
}

export function createDrain(idleCloseMs: number = IDLE_CLOSE_MS): Drain {
  let draining = false;
  let tracked: Server | undefined;
  const connections = new Map<Socket, Connection>();
  let changed: (() => void) | undefined;

  const closeIdle = () => {
    const now = performance.now();
    for (const [socket, connection] of connections) {
      if (connection.responses.size === 0 && now - connection.idleSince >= idleCloseMs) {
        socket.destroy();
      }
    }
  };

  return {
    get draining() {
      return draining;
    },
    track(server) {
      tracked = server;
      server.on('connection', (socket: Socket) => {
        connections.set(socket, { responses: new Set(), idleSince: performance.now() });
        socket.once('close', () => {
          connections.delete(socket);
          changed?.();
        });
      });
      // Before the application's own listener, so that the header is set before any of it runs.
      server.prependListener('request', (request, response) => {
        if (draining) response.setHeader('connection', 'close');
        const connection = connections.get(request.socket);
        if (connection === undefined) return;
        connection.responses.add(response);
        response.once('close', () => {
          connection.responses.delete(response);
          connection.idleSince = performance.now();
        });
      });
    },
    begin(graceMs) {
      draining = true;
      // Only stop listening. http.Server#close would also destroy at once every connection with
      // no request in flight, among them those whose next request is on the wire but not read
      // yet: those requests would be reset. Idle connections are closed by closeIdle instead.
      if (tracked?.listening === true) NetServer.prototype.close.call(tracked);
      for (const connection of connections.values()) {
        for (const response of connection.responses) {
          if (!response.headersSent) response.setHeader('connection', 'close');
        }
      }
      return new Promise((resolve) => {
        const sweep = setInterval(closeIdle, SWEEP_MS);
        const timer = setTimeout(() => done(false), graceMs);
        const done = (idle: boolean) => {
          clearInterval(sweep);
          clearTimeout(timer);
          changed = undefined;
          resolve({ idle });
        };
        changed = () => {
          if (connections.size === 0) done(true);
        };
        changed();
      });
    },
  };
}
