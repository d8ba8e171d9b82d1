// The only reader of process.env. Configuration is parsed once at start into a frozen, typed
// object; a bad value stops start-up with a message naming the variable.
import path from 'node:path';
import { DEFAULT_DATA_STALE_DAYS } from './catalog/freshness.js';
import type { ProviderName } from './catalog/model.js';
import { digestKey, type KeyDigest } from './keys/key-digest.js';
import type { ProviderDefinition } from './providers/provider-definition.js';
import { PROVIDERS, defaultProviders } from './providers/registry.js';
import { DEFAULT_MAX_UNTRUSTED_KEYS } from './infra/memory/memory-counter-store.js';
import { DEFAULT_MAX_JSON_BYTES } from './sync/upstream/upstream-client.js';

export interface ProviderSourceConfig {
  /** https://, http:// or file:// base URL of the provider's upstream catalogue. */
  readonly baseUrl: string;
  readonly displayName: string;
}

export interface Config {
  readonly port: number;
  readonly host: string;
  readonly dataDir: string;
  /** The built web UI (D48), served under /ui/; `npm run build:web` writes it. */
  readonly webDir: string;
  /** `postgres://…` for PostgreSQL, otherwise a SQLite file path (`sqlite:` prefix optional). */
  readonly databaseUrl: string;
  /**
   * SHA-256 digests of the keys in API_KEYS (D5: the keys themselves are not kept); empty means
   * "use the keys file, or generate one in dataDir" (D6).
   */
  readonly apiKeyDigests: readonly KeyDigest[];
  readonly apiKeysFile: string | undefined;
  /** The one header trusted for the client address (D9), lower-cased; undefined = socket address. */
  readonly clientIpHeader: string | undefined;
  /** Allowed CORS origins; empty means `*` (D12). */
  readonly corsOrigins: readonly string[];
  /**
   * Origins whose browser requests /mcp serves (D59, DNS-rebinding protection); empty: none. A
   * request without an Origin header is served; any other Origin gets 403, whatever CORS allows.
   */
  readonly mcpAllowedOrigins: readonly string[];
  readonly logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** `json` (one pino JSON object per line, D52) or `pretty` (pino-pretty, for a terminal). */
  readonly logFormat: 'json' | 'pretty';
  /** Port of the separate Prometheus listener (D51); undefined = no metrics listener. */
  readonly metricsPort: number | undefined;
  readonly metricsHost: string;
  /** Longest drain after SIGTERM/SIGINT before the process exits anyway (milliseconds). */
  readonly shutdownGraceMs: number;
  readonly redisUrl: string | undefined;
  /** Milliseconds between scheduled syncs; 0 turns the schedule off. */
  readonly syncIntervalMs: number;
  /** Whole-request deadline, so a slow client cannot hold a connection (Fastify 5 sets none). */
  readonly requestTimeoutMs: number;
  /**
   * Deadline for a request's headers, counted from the connection's first byte or the previous
   * response: a connection that sends nothing, or headers byte by byte, is closed after it.
   * At most requestTimeoutMs.
   */
  readonly headersTimeoutMs: number;
  /** Open client connections at most; further connections are closed as soon as accepted. */
  readonly maxConnections: number;
  /**
   * A connection whose response bytes wait unsent for this long (the client reads nothing) is
   * closed and its buffers freed; the API port and the metrics port alike (src/infra/write-watchdog.ts).
   */
  readonly writeTimeoutMs: number;
  /** D57: a provider's prices observed more than this many whole days ago are stale. */
  readonly dataStaleDays: number;
  /** Upper bound of /instances response cache entries (least recently used evicted). */
  readonly cacheMaxEntries: number;
  /** How often each process checks the committed catalogue version, ms; 0 turns it off. */
  readonly catalogVersionPollMs: number;
  /** Most rate-limit counters the memory store holds; a new client beyond it gets 503. */
  readonly rateLimitMaxCounters: number;
  /**
   * Most counters created by requests without a valid key the memory store holds, besides
   * rateLimitMaxCounters, so a flood of them cannot take the valid clients' room (issue 35).
   */
  readonly rateLimitMaxUnauthenticatedCounters: number;
  readonly upstream: {
    readonly connectTimeoutMs: number;
    readonly firstByteTimeoutMs: number;
    readonly totalTimeoutMs: number;
    readonly maxRetries: number;
    /** Largest streamed body (a provider's offer files, the ECB document), in bytes. */
    readonly maxResponseBytes: number;
    /**
     * Largest JSON document read whole (a provider's API pages or offer-file indexes),
     * in bytes: parsed on the event loop, so far smaller than the streamed cap.
     */
    readonly maxJsonBytes: number;
  };
  /**
   * The providers served (D65): those of the registry (src/providers/registry.ts) that PROVIDERS
   * enables, in registry order.
   */
  readonly registry: readonly ProviderDefinition[];
  /** Per provider of `registry`: PROVIDER_<X>_URL and PROVIDER_<X>_DISPLAY_NAME. */
  readonly providers: Readonly<Record<ProviderName, ProviderSourceConfig>>;
  readonly webhooks: WebhookConfig;
  readonly fx: {
    /** The ECB daily reference rates document (https:// live, or file://); FX_RATES_URL. */
    readonly ratesUrl: string;
    /** The bundled recording, read when ratesUrl has never answered. */
    readonly bundledRatesUrl: string;
  };
  /** The AWS provider's spot feeds (PROVIDER_C_SPOT_*), D61: docs/purchase-options.md. */
  readonly providerCSpot: ProviderCSpotConfig;
}

/** Where the AWS provider's spot figures come from (D61). */
export interface ProviderCSpotConfig {
  /** PROVIDER_C_SPOT_URL, AWS's spot price feed; undefined (the default): no spot prices. */
  readonly pricesUrl: string | undefined;
  /**
   * PROVIDER_C_SPOT_ADVICE_URL, the Spot Instance Advisor feed; default the bundled recording
   * (bundledAdviceUrl); undefined when set to `off`.
   */
  readonly adviceUrl: string | undefined;
  readonly bundledAdviceUrl: string;
}

/** Webhook delivery (D42). */
export interface WebhookConfig {
  /** WEBHOOK_ALLOW_PRIVATE=true: targets on loopback, link-local and private addresses. */
  readonly allowPrivate: boolean;
  /** Per attempt: name resolution, and then the whole request (D42: 10 s). */
  readonly timeoutMs: number;
  /** Deliveries one replica sends at once; the rest wait in the queue. */
  readonly concurrency: number;
  /** How often each replica looks for due deliveries. */
  readonly pollIntervalMs: number;
  /**
   * The first retry's delay; each later one doubles it (capped at 6 h), until 24 h after the
   * event. Tests shorten it; operators rarely need to.
   */
  readonly retryBaseMs: number;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** The variable at fault: every message starts with its name. */
  get variable(): string | undefined {
    return /^[A-Z][A-Z0-9_]*\b/.exec(this.message)?.[0];
  }
}

type Env = Readonly<Record<string, string | undefined>>;

function text(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === '' ? undefined : value;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be a whole number from ${min} to ${max}, got "${raw}"`);
  }
  return Number(raw);
}

const DURATION = /^(\d+)(ms|s|m|h)?$/;
const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/** Durations are `<n>` seconds or `<n>ms|s|m|h`. */
function duration(env: Env, name: string, fallbackMs: number): number {
  const raw = text(env, name);
  if (raw === undefined) return fallbackMs;
  const match = DURATION.exec(raw);
  if (!match)
    throw new ConfigError(`${name} must be a duration such as 30s, 15m or 6h, got "${raw}"`);
  const unit = (match[2] ?? 's') as keyof typeof UNIT_MS;
  return Number(match[1]) * UNIT_MS[unit];
}

function boolean(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function list(env: Env, name: string): string[] {
  return (text(env, name) ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function url(env: Env, name: string, fallback: string, schemes: readonly string[]): string {
  const raw = text(env, name) ?? fallback;
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be a URL, got "${raw}"`);
  }
  if (!schemes.includes(parsed.protocol)) {
    throw new ConfigError(`${name} must use ${schemes.join(' or ')}, got "${raw}"`);
  }
  return raw;
}

/** A third of the default REQUEST_TIMEOUT: headers are small, only a slow client needs longer. */
const DEFAULT_HEADERS_TIMEOUT_MS = 10_000;
/**
 * Far above what a replica behind a balancer sees, far below the open-file limit Node raises
 * itself to at start (the hard limit, usually 2^19 or more); each idle connection costs a few KB.
 */
const DEFAULT_MAX_CONNECTIONS = 4_096;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

/**
 * PROVIDERS (D65): a comma list of registered names, or `all`; unset, the registry's default ones.
 * Served in registry order whatever the list's order, so the API lists providers alike everywhere.
 */
function enabledProviders(
  env: Env,
  known: readonly ProviderDefinition[],
): readonly ProviderDefinition[] {
  const raw = text(env, 'PROVIDERS');
  if (raw === undefined) return defaultProviders(known);
  if (raw.toLowerCase() === 'all') return known;
  const names = list(env, 'PROVIDERS');
  const knownNames = known.map((p) => p.name);
  const unknown = names.filter((name) => !knownNames.includes(name));
  if (unknown.length > 0 || names.length === 0) {
    throw new ConfigError(
      `PROVIDERS must be "all" or a comma list of ${knownNames.join(', ')}, got "${raw}"` +
        (unknown.length > 0 ? ` (unknown: ${unknown.join(', ')})` : ''),
    );
  }
  return known.filter((p) => names.includes(p.name));
}

/**
 * `known`: the registered providers (tests add a test-only one); the config's `registry` is those
 * of them that PROVIDERS enables.
 */
export function loadConfig(
  env: Env = process.env,
  cwd: string = process.cwd(),
  known: readonly ProviderDefinition[] = PROVIDERS,
): Config {
  const registry = enabledProviders(env, known);
  const dataDir = path.resolve(cwd, text(env, 'DATA_DIR') ?? './data');
  const snapshots = path.resolve(cwd, text(env, 'SNAPSHOT_DIR') ?? './data/snapshots');
  const snapshotUrl = (provider: ProviderName) =>
    new URL(`file://${path.join(snapshots, provider)}/`).href;

  const logLevel = text(env, 'LOG_LEVEL') ?? 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${logLevel}"`);
  }
  const logFormat = text(env, 'LOG_FORMAT') ?? 'json';
  if (logFormat !== 'json' && logFormat !== 'pretty') {
    throw new ConfigError(`LOG_FORMAT must be json or pretty, got "${logFormat}"`);
  }
  const metricsPort =
    text(env, 'METRICS_PORT') === undefined ? undefined : integer(env, 'METRICS_PORT', 0, 0, 65535);
  const clientIpHeader = text(env, 'CLIENT_IP_HEADER');
  if (clientIpHeader !== undefined && !HEADER_NAME.test(clientIpHeader)) {
    throw new ConfigError(`CLIENT_IP_HEADER must be an HTTP header name, got "${clientIpHeader}"`);
  }
  const origins = (name: string): string[] => {
    const values = list(env, name);
    for (const origin of values) {
      if (!/^https?:\/\/[^/\s]+$/.test(origin)) {
        throw new ConfigError(
          `${name} entries must be origins like https://app.example.com, got "${origin}"`,
        );
      }
    }
    return values;
  };
  const corsOrigins = origins('CORS_ORIGINS');
  const mcpAllowedOrigins = origins('MCP_ALLOWED_ORIGINS');
  const apiKeyDigests = list(env, 'API_KEYS').map((key) => {
    if (key.length < 16)
      throw new ConfigError('API_KEYS entries must be at least 16 characters long');
    return digestKey(key);
  });
  const redisUrl = text(env, 'REDIS_URL');
  if (redisUrl !== undefined) url(env, 'REDIS_URL', redisUrl, ['redis:', 'rediss:']);

  const upstreamSchemes = ['https:', 'http:', 'file:'];
  const providers = Object.fromEntries(
    registry.map((p): [ProviderName, ProviderSourceConfig] => [
      p.name,
      {
        baseUrl: url(env, `PROVIDER_${p.envKey}_URL`, snapshotUrl(p.name), upstreamSchemes),
        displayName: text(env, `PROVIDER_${p.envKey}_DISPLAY_NAME`) ?? p.displayName,
      },
    ]),
  );

  const bundledRatesUrl = new URL(`file://${path.join(snapshots, 'fx', 'eurofxref-daily.xml')}`)
    .href;
  const ratesUrl = url(env, 'FX_RATES_URL', bundledRatesUrl, upstreamSchemes);
  if (new URL(ratesUrl).pathname.endsWith('/')) {
    throw new ConfigError(`FX_RATES_URL must name a file, got "${ratesUrl}"`);
  }

  const spotFeed = (name: string, fallback: string | undefined): string | undefined => {
    const raw = text(env, name);
    if (raw?.toLowerCase() === 'off') return undefined;
    if (raw === undefined && fallback === undefined) return undefined;
    const value = url(env, name, fallback ?? '', upstreamSchemes);
    if (new URL(value).pathname.endsWith('/')) {
      throw new ConfigError(`${name} must name a file, got "${value}"`);
    }
    return value;
  };
  // The spot settings belong to the provider of letter C (AWS); its bundled advice recording
  // sits in its snapshot folder under the feed's own file name.
  const spotProvider = known.find((p) => p.envKey === 'C')?.name ?? 'C';
  const bundledAdviceUrl = new URL(
    `file://${path.join(snapshots, spotProvider, 'spot-advisor-data.json')}`,
  ).href;

  const positive = (name: string, ms: number): number => {
    if (ms <= 0) throw new ConfigError(`${name} must be longer than 0`);
    return ms;
  };
  const requestTimeoutMs = duration(env, 'REQUEST_TIMEOUT', 30_000);
  const headersTimeoutMs = duration(
    env,
    'HEADERS_TIMEOUT',
    requestTimeoutMs > 0
      ? Math.min(DEFAULT_HEADERS_TIMEOUT_MS, requestTimeoutMs)
      : DEFAULT_HEADERS_TIMEOUT_MS,
  );
  if (headersTimeoutMs < 1 || (requestTimeoutMs > 0 && headersTimeoutMs > requestTimeoutMs)) {
    throw new ConfigError(
      `HEADERS_TIMEOUT must be from 1ms to REQUEST_TIMEOUT (${requestTimeoutMs} ms), got ${headersTimeoutMs} ms`,
    );
  }

  const config: Config = {
    port: integer(env, 'PORT', 8080, 0, 65535),
    host: text(env, 'HOST') ?? '127.0.0.1',
    dataDir,
    webDir: path.resolve(cwd, text(env, 'WEB_DIR') ?? './dist/web'),
    databaseUrl: text(env, 'DATABASE_URL') ?? path.join(dataDir, 'cloudprice.db'),
    apiKeyDigests,
    apiKeysFile: text(env, 'API_KEYS_FILE'),
    clientIpHeader: clientIpHeader?.toLowerCase(),
    corsOrigins,
    mcpAllowedOrigins,
    logLevel: logLevel as Config['logLevel'],
    logFormat,
    metricsPort,
    metricsHost: text(env, 'METRICS_HOST') ?? '127.0.0.1',
    shutdownGraceMs: duration(env, 'SHUTDOWN_GRACE', 5_000),
    redisUrl,
    syncIntervalMs: duration(env, 'SYNC_INTERVAL', 6 * 3_600_000),
    requestTimeoutMs,
    headersTimeoutMs,
    maxConnections: integer(env, 'MAX_CONNECTIONS', DEFAULT_MAX_CONNECTIONS, 1, 1_000_000),
    writeTimeoutMs: positive('WRITE_TIMEOUT', duration(env, 'WRITE_TIMEOUT', 30_000)),
    dataStaleDays: integer(env, 'DATA_STALE_DAYS', DEFAULT_DATA_STALE_DAYS, 0, 36_500),
    cacheMaxEntries: integer(env, 'CACHE_MAX_ENTRIES', 1000, 0, 1_000_000),
    catalogVersionPollMs: duration(env, 'CATALOG_VERSION_POLL', 1_000),
    rateLimitMaxCounters: integer(env, 'RATE_LIMIT_MAX_COUNTERS', 250_000, 1_000, 10_000_000),
    rateLimitMaxUnauthenticatedCounters: integer(
      env,
      'RATE_LIMIT_MAX_UNAUTHENTICATED_COUNTERS',
      DEFAULT_MAX_UNTRUSTED_KEYS,
      1_000,
      10_000_000,
    ),
    upstream: {
      connectTimeoutMs: duration(env, 'UPSTREAM_CONNECT_TIMEOUT', 5_000),
      firstByteTimeoutMs: duration(env, 'UPSTREAM_FIRST_BYTE_TIMEOUT', 15_000),
      totalTimeoutMs: duration(env, 'UPSTREAM_TOTAL_TIMEOUT', 300_000),
      maxRetries: integer(env, 'UPSTREAM_MAX_RETRIES', 3, 0, 10),
      maxResponseBytes: integer(env, 'UPSTREAM_MAX_BYTES', 1024 * 1024 * 1024, 1024, 8 * 1024 ** 3),
      maxJsonBytes: integer(
        env,
        'UPSTREAM_JSON_MAX_BYTES',
        DEFAULT_MAX_JSON_BYTES,
        1024,
        256 * 1024 ** 2,
      ),
    },
    registry,
    providers,
    webhooks: {
      allowPrivate: boolean(env, 'WEBHOOK_ALLOW_PRIVATE', false),
      timeoutMs: positive('WEBHOOK_TIMEOUT', duration(env, 'WEBHOOK_TIMEOUT', 10_000)),
      concurrency: integer(env, 'WEBHOOK_CONCURRENCY', 8, 1, 256),
      pollIntervalMs: positive(
        'WEBHOOK_POLL_INTERVAL',
        duration(env, 'WEBHOOK_POLL_INTERVAL', 1_000),
      ),
      retryBaseMs: duration(env, 'WEBHOOK_RETRY_BASE', 30_000),
    },
    fx: { ratesUrl, bundledRatesUrl },
    providerCSpot: {
      pricesUrl: spotFeed('PROVIDER_C_SPOT_URL', undefined),
      adviceUrl: spotFeed('PROVIDER_C_SPOT_ADVICE_URL', bundledAdviceUrl),
      bundledAdviceUrl,
    },
  };
  return deepFreeze(config);
}

function deepFreeze<T>(value: T): T {
  // Buffers (the API key digests) cannot be frozen; nothing writes to them.
  if (ArrayBuffer.isView(value)) return value;
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}
