// Start-up failures an operator can fix by changing one variable (a port in use, an address the
// host does not have) are reported as one clear line naming it (issue 13), not as a stack.
import { createServer } from 'node:net';
import type { Config } from './config.js';

export interface StartupFailure {
  /** The variable to change, when one is at fault. */
  readonly variable: string | undefined;
  readonly message: string;
}

const LISTEN_PROBLEMS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'is already in use',
  EACCES: 'needs privileges this process does not have',
  EADDRNOTAVAIL: 'is not an address of this host',
};

export function startupFailure(error: unknown, config: Config): StartupFailure {
  const code = (error as { code?: unknown } | null)?.code;
  const problem = typeof code === 'string' ? LISTEN_PROBLEMS[code] : undefined;
  if (typeof code === 'string' && problem !== undefined) {
    const port = (error as { port?: unknown }).port;
    const metrics = config.metricsPort !== undefined && port === config.metricsPort;
    const [portVar, hostVar] = metrics ? ['METRICS_PORT', 'METRICS_HOST'] : ['PORT', 'HOST'];
    const host = metrics ? config.metricsHost : config.host;
    const listenPort = metrics ? config.metricsPort : config.port;
    const variable = code === 'EADDRNOTAVAIL' ? hostVar : portVar;
    return {
      variable,
      message: `configuration error: ${variable}: cannot listen on ${host}:${listenPort}, the ${
        code === 'EADDRNOTAVAIL' ? 'address' : 'port'
      } ${problem} (${code})`,
    };
  }
  return {
    variable: undefined,
    message: `failed to start: ${error instanceof Error ? error.message : String(error)}`,
  };
}

/**
 * Binds and releases each configured port before anything else starts, so a port in use stops
 * the process at once, before migrations and a first sync that can take minutes. (The real
 * listen can still lose a race with another process; its error is reported the same way.)
 */
export async function assertPortsFree(config: Config): Promise<void> {
  const wanted: { port: number; host: string }[] = [{ port: config.port, host: config.host }];
  if (config.metricsPort !== undefined) {
    wanted.push({ port: config.metricsPort, host: config.metricsHost });
  }
  for (const { port, host } of wanted) {
    if (port === 0) continue;
    await new Promise<void>((resolve, reject) => {
      const probe = createServer();
      probe.once('error', reject);
      probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
    });
  }
}
