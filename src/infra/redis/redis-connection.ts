/**
 * The one way cloudprice opens a Redis connection. Every Redis piece (counter store, invalidation
 * bus publisher and subscriber) uses it, so they all fail the same way: FAST and CLOSED.
 *
 * Why these options: the counter store sits on the path of every request and the rate limiter must
 * fail closed (D11). ioredis's defaults are the opposite of that: an unbounded offline queue,
 * 20 retries per command and no command timeout, so with Redis down or hung a request would wait
 * for ever (or for tens of seconds) and then maybe succeed. Here a command either gets an answer
 * quickly or rejects quickly, and the connection keeps healing in the background on its own.
 */
import { Redis } from 'ioredis';
import { unwatched, type ComponentWatch } from '../component-watch.js';

/** A TCP connection attempt that has not completed by then is abandoned (ms). */
export const REDIS_CONNECT_TIMEOUT_MS = 500;
/**
 * Any command (and the connection's own handshake and ready check) that has no reply by then
 * rejects (ms). Local Redis answers in well under 1 ms; 300 ms is far above normal latency yet
 * keeps a failing request under one second end to end.
 */
export const REDIS_COMMAND_TIMEOUT_MS = 300;
/**
 * Delay between reconnection attempts (ms), for ever: service comes back by itself within about
 * a second of Redis returning, and a dead Redis costs one cheap attempt per half second.
 */
export const REDIS_RECONNECT_DELAY_MS = 500;

/**
 * Opens (eagerly, in the background) a connection to `url` configured to fail fast and closed.
 * `purpose` names the connection (`CLIENT SETNAME cloudprice:<purpose>`), so operators can tell
 * the connections apart in `CLIENT LIST`; characters Redis does not allow in names become `_`.
 *
 * The returned client never queues commands while disconnected: a command sent while the
 * connection is not ready rejects at once. Callers that want to ride out the first connection
 * (or a reconnection already in progress) call {@link whenRedisReady} first.
 */
export function createRedisConnection(
  url: string,
  purpose: string,
  watch: ComponentWatch = unwatched,
): Redis {
  const redis = new Redis(url, {
    connectionName: `cloudprice:${purpose.replace(/[^A-Za-z0-9:_.-]/g, '_')}`,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    // No offline queue: while disconnected a command rejects immediately instead of waiting
    // for a reconnection that may never come (fail closed, D11).
    enableOfflineQueue: false,
    // Commands already written when the connection drops are rejected at once, never resent:
    // an INCR resent after a reconnect could count a request twice.
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    // Reconnect for ever at a fixed pace; returning a number never gives up.
    retryStrategy: () => REDIS_RECONNECT_DELAY_MS,
    // CLIENT SETINFO needs Redis 7.2; skipping it saves two round trips per (re)connection.
    disableClientInfo: true,
  });
  // Without a listener ioredis prints every connection error to stderr, twice a second during an
  // outage. Failures reach callers as rejected commands and through ping() (/health), and the
  // watch hears every one; it logs only a change of state, never each retry.
  redis.on('error', (error: Error) => {
    if (!closing.has(redis)) watch.failed(purpose, error);
  });
  // A connection closed by the server (CLIENT KILL, a restart) emits no error, only 'close'.
  redis.on('close', () => {
    if (!closing.has(redis)) watch.failed(purpose, new Error('connection closed'));
  });
  redis.on('ready', () => watch.recovered(purpose));
  return redis;
}

function ignoreConnectionError(): void {
  // Intentionally empty: see createRedisConnection.
}

/** Connections being closed by us: their 'close' is no failure. */
const closing = new WeakSet<Redis>();

/** One shared wait per connection, so a burst of requests adds no listeners per request. */
const pendingReady = new WeakMap<Redis, Promise<void>>();

/**
 * Resolves when `redis` is ready for commands. Returns at once when it already is; rejects at
 * once when the connection is closed or waiting to reconnect (so an outage costs no latency);
 * while a connection attempt is in progress, waits for it for at most `timeoutMs`.
 */
export function whenRedisReady(
  redis: Redis,
  timeoutMs: number = REDIS_COMMAND_TIMEOUT_MS,
): Promise<void> {
  switch (redis.status) {
    case 'ready':
      return Promise.resolve();
    case 'wait':
      // Created with lazyConnect: start connecting, then wait like any attempt in progress.
      redis.connect().catch(ignoreConnectionError);
      break;
    case 'connecting':
    case 'connect':
      break;
    default:
      return Promise.reject(new Error(`Redis is not connected (status: ${redis.status})`));
  }
  let pending = pendingReady.get(redis);
  if (pending === undefined) {
    pending = waitForReady(redis, timeoutMs);
    pendingReady.set(redis, pending);
    const forget = (): void => {
      pendingReady.delete(redis);
    };
    pending.then(forget, forget);
  }
  return pending;
}

function waitForReady(redis: Redis, timeoutMs: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const settle = (error: Error | undefined): void => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('close', onClose);
      redis.off('end', onClose);
      if (error === undefined) resolve();
      else reject(error);
    };
    const onReady = (): void => settle(undefined);
    const onClose = (): void => settle(new Error('Redis connection closed before it was ready'));
    const timer = setTimeout(
      () => settle(new Error(`Redis was not ready within ${timeoutMs} ms`)),
      timeoutMs,
    );
    redis.on('ready', onReady);
    redis.on('close', onClose);
    redis.on('end', onClose);
  });
}

/**
 * Closes `redis` for good: a polite QUIT when it is connected (bounded by the command timeout),
 * then a hard disconnect that also stops any pending reconnection. Never rejects.
 */
export async function closeRedisConnection(redis: Redis): Promise<void> {
  closing.add(redis);
  if (redis.status === 'ready') {
    await redis.quit().catch(ignoreConnectionError);
  }
  redis.disconnect(false);
}
