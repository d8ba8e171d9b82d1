// The real server (`src/main.ts` in a child process, as `npm start` runs it) on a temporary data
// directory, filled from the bundled snapshots on its first start, with the web UI built.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawnServer, type ServerProcess } from '../../sync/server-process.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const E2E_KEY = 'e2e-key-0123456789abcdef-0123';

/** Builds dist/web unless it is already built from the current sources (what npm start does). */
export function buildWebIfNeeded(): void {
  execFileSync(process.execPath, ['scripts/build-web.mjs', '--if-needed'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}

export interface UiServer {
  readonly url: string;
  readonly process: ServerProcess;
  /** GET or POST the API as the page would, from the given test client address. */
  api(pathAndQuery: string, client: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

export async function startUiServer(env: Record<string, string> = {}): Promise<UiServer> {
  buildWebIfNeeded();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-e2e-'));
  const server = spawnServer({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    SYNC_INTERVAL: '0',
    LOG_LEVEL: 'warn',
    CLIENT_IP_HEADER: 'x-test-client',
    API_KEYS: E2E_KEY,
    ...env,
  });
  const url = await server.listening(120_000);
  return {
    url,
    process: server,
    api: (pathAndQuery, client, init = {}) =>
      fetch(`${url}${pathAndQuery}`, {
        ...init,
        headers: {
          'x-api-key': E2E_KEY,
          'x-test-client': client,
          ...(init.body !== undefined && { 'content-type': 'application/json' }),
          ...(init.headers as Record<string, string> | undefined),
        },
      }),
    async stop() {
      await server.stop('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
