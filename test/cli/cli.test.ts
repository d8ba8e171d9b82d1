// The real `cloudprice` command as a child process (`node --import tsx src/cli/main.ts`) against
// a temporary DATA_DIR: key rotation checked with the server's own key resolution and verifier,
// syncs from the bundled snapshots, health, and the exit codes scripts rely on.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { createApiKeyVerifier } from '../../src/http/auth.js';
import { digestKey } from '../../src/keys/key-digest.js';
import { resolveApiKeys } from '../../src/keys/key-file.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const dirs: string[] = [];

function tempDataDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cloudprice-cli-'));
  dirs.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the command to its end with only `env` (plus PATH and HOME): nothing else leaks in. */
function cli(args: readonly string[], env: Record<string, string>): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], {
      cwd: ROOT,
      env: {
        PATH: process.env['PATH'] ?? '/usr/bin:/bin',
        HOME: process.env['HOME'] ?? '/tmp',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const fingerprint = (key: string) =>
  createHash('sha256').update(key, 'utf8').digest('hex').slice(0, 8);

/** The keys a server started now would accept, by the server's own code. */
function serverAccepts(dataDir: string, key: string): boolean {
  const resolved = resolveApiKeys(loadConfig({ DATA_DIR: dataDir }, ROOT));
  expect(resolved.takeGeneratedKey()).toBeUndefined();
  return createApiKeyVerifier(resolved.digests)(key);
}

const mode = (file: string) => statSync(file).mode & 0o777;

describe('cloudprice keys', () => {
  const dataDir = tempDataDir();
  const env = { DATA_DIR: dataDir };
  const keyFile = path.join(dataDir, 'api-keys');
  let first = '';
  let second = '';

  it('create prints only a new key on stdout and stores it, mode 0600, where the server reads it', async () => {
    const run = await cli(['keys', 'create'], env);
    expect(run.code).toBe(0);
    first = run.stdout.trim();
    expect(run.stdout).toBe(`${first}\n`);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(run.stderr).toContain(fingerprint(first));
    expect(run.stderr).toMatch(/restart/i);
    expect(mode(keyFile)).toBe(0o600);
    expect(serverAccepts(dataDir, first)).toBe(true);
    expect(serverAccepts(dataDir, `${first}x`)).toBe(false);
  });

  it('a second create adds a key beside the first: both are valid at once (rotation)', async () => {
    const run = await cli(['keys', 'create'], env);
    expect(run.code).toBe(0);
    second = run.stdout.trim();
    expect(second).not.toBe(first);
    expect(serverAccepts(dataDir, first)).toBe(true);
    expect(serverAccepts(dataDir, second)).toBe(true);
  });

  it('list prints one fingerprint per key and never a key', async () => {
    const run = await cli(['keys', 'list'], env);
    expect(run.code).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual([fingerprint(first), fingerprint(second)]);
    for (const key of [first, second]) {
      expect(run.stdout).not.toContain(key);
      expect(run.stderr).not.toContain(key);
    }
  });

  it('revoke removes exactly the key with that fingerprint and says to restart servers', async () => {
    const run = await cli(['keys', 'revoke', fingerprint(first)], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/restart/i);
    expect(serverAccepts(dataDir, first)).toBe(false);
    expect(serverAccepts(dataDir, second)).toBe(true);
    expect(resolveApiKeys(loadConfig(env, ROOT)).digests).toEqual([digestKey(second)]);
    expect(mode(keyFile)).toBe(0o600);
  });

  it('revoke refuses to remove the last key and leaves the file as it was', async () => {
    const before = readFileSync(keyFile, 'utf8');
    const run = await cli(['keys', 'revoke', fingerprint(second)], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('--force');
    expect(readFileSync(keyFile, 'utf8')).toBe(before);
    expect(serverAccepts(dataDir, second)).toBe(true);
  });

  it('revoke of an unknown fingerprint fails (1); a malformed one is a usage error (2)', async () => {
    const unknown = fingerprint(second) === '00000000' ? '11111111' : '00000000';
    const missing = await cli(['keys', 'revoke', unknown], env);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(unknown);
    const malformed = await cli(['keys', 'revoke', 'not-hex'], env);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toContain('not a fingerprint');
  });

  it('revoke --force removes the last key too', async () => {
    const run = await cli(['keys', 'revoke', '--force', fingerprint(second)], env);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/generate a new key/);
    expect(readFileSync(keyFile, 'utf8')).not.toContain(second);
    expect(mode(keyFile)).toBe(0o600);
  });
});

describe('cloudprice keys with other key sources', () => {
  it('create refuses when API_KEYS is set (keys managed in the environment) and writes nothing', async () => {
    const dataDir = tempDataDir();
    const run = await cli(['keys', 'create'], {
      DATA_DIR: dataDir,
      API_KEYS: 'an-environment-key-0123456789',
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('API_KEYS');
    expect(run.stdout).toBe('');
    expect(existsSync(path.join(dataDir, 'api-keys'))).toBe(false);
  });

  it('create appends to API_KEYS_FILE, keeping its comments, and tightens its mode to 0600', async () => {
    const file = path.join(tempDataDir(), 'keys.txt');
    const existing = 'an-existing-key-0123456789';
    writeFileSync(file, `# team keys\n${existing}\n`);
    chmodSync(file, 0o644);
    const run = await cli(['keys', 'create'], { DATA_DIR: tempDataDir(), API_KEYS_FILE: file });
    expect(run.code).toBe(0);
    const key = run.stdout.trim();
    expect(readFileSync(file, 'utf8')).toBe(`# team keys\n${existing}\n${key}\n`);
    expect(mode(file)).toBe(0o600);
  });
});

describe('cloudprice sync and health', () => {
  const dataDir = tempDataDir();
  const env = { DATA_DIR: dataDir };

  it('health of a never-synced catalogue prints the report and exits 1', async () => {
    const run = await cli(['health'], env);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { status: string };
    expect(report.status).toBe('unhealthy');
  });

  it('syncs provider_a and provider_b from the bundled snapshots, exit 0, with counts', async () => {
    const run = await cli(['sync', 'provider_a', 'provider_b'], env);
    expect(run.code, run.stderr).toBe(0);
    const rows = run.stdout.split('\n').filter((line) => /^provider_/.test(line));
    expect(rows).toHaveLength(2);
    for (const [row, provider] of rows.map((r, i) => [r, ['provider_a', 'provider_b'][i]])) {
      const cells = row!.split(/\s+/);
      expect(cells.slice(0, 2)).toEqual([provider, 'ok']);
      expect(Number(cells[2])).toBeGreaterThan(0); // regions
      expect(Number(cells[3])).toBeGreaterThan(0); // instances
    }
    expect(run.stdout).toContain('2 of 2 provider(s) synced');
  });

  it('health is not healthy (exit 1) while provider_c has never synced, and shows the synced ones', async () => {
    const run = await cli(['health'], env);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as {
      status: string;
      components: { providers: { name: string; status: string; instances_count: number }[] };
    };
    expect(report.status).toBe('degraded');
    const a = report.components.providers.find((p) => p.name === 'provider_a');
    expect(a).toMatchObject({ status: 'healthy' });
    expect(a!.instances_count).toBeGreaterThan(0);
  });

  it('health exits 0 once every provider has synced', async () => {
    const sync = await cli(['sync', 'provider_c', '--json'], env);
    expect(sync.code, sync.stderr).toBe(0);
    expect(JSON.parse(sync.stdout)).toMatchObject({ success: true });
    const run = await cli(['health'], env);
    expect(run.code, run.stdout).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'healthy' });
  }, 120_000); // provider_c's snapshot is the largest: a hang guard on a busy machine

  it('a failing provider makes the exit code 1 and shows its error in the table', async () => {
    const run = await cli(['sync', 'provider_a', 'provider_b'], {
      ...env,
      PROVIDER_B_URL: `file://${path.join(tempDataDir(), 'no-such-snapshot')}/`,
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^provider_b\s+FAILED\s.*UPSTREAM_/m);
    expect(run.stdout).toMatch(/^provider_a\s+ok\s/m);
  });

  it('unknown provider names are listed and exit 2 before anything is opened', async () => {
    const fresh = tempDataDir();
    const run = await cli(['sync', 'provider_a', 'provider_x', 'aws'], { DATA_DIR: fresh });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('provider_x, aws');
    expect(existsSync(path.join(fresh, 'cloudprice.db'))).toBe(false);
  });
});

describe('cloudprice usage', () => {
  it.each([[[]], [['frobnicate']]])('%j prints the usage on stderr and exits 2', async (args) => {
    const run = await cli(args, { DATA_DIR: tempDataDir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('Usage: cloudprice <command>');
    expect(run.stdout).toBe('');
  });

  it.each([
    [['--help'], 'Usage: cloudprice <command>'],
    [['keys', '--help'], 'Usage: cloudprice keys'],
    [['keys', 'revoke', '--help'], '--force'],
    [['sync', '--help'], 'Usage: cloudprice sync'],
    [['health', '--help'], 'Usage: cloudprice health'],
  ])('%j prints help on stdout and exits 0', async (args, text) => {
    const run = await cli(args, { DATA_DIR: tempDataDir() });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(text);
  });

  it('an unknown option is a usage error (2) naming the option', async () => {
    const run = await cli(['health', '--verbose'], { DATA_DIR: tempDataDir() });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--verbose');
  });

  it('a bad configuration value exits 2 naming the variable', async () => {
    const run = await cli(['health'], { DATA_DIR: tempDataDir(), LOG_LEVEL: 'loud' });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('LOG_LEVEL');
  });
});
