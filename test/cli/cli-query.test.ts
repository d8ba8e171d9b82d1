// `cloudprice instances` and `cloudprice recommend` as shipped (the built binary), on a real
// catalogue written by a real `cloudprice sync` of the test snapshots, on SQLite and PostgreSQL.
// The CLI must answer exactly what the API answers for the same question (one parser, one
// listing, one ranking), print tables for people and JSON/CSV for scripts, and say what
// happened in its exit code.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { INSTANCE_CSV_COLUMNS, MACHINE_FACT_CSV_COLUMNS } from '../../src/catalog/instance-csv.js';
import type { InstanceRecord } from '../../src/catalog/instance-json.js';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { parseCsv } from '../support/parse-csv.js';
import {
  auth,
  createTestApp,
  fixtureSources,
  TEST_API_KEY,
  type TestApp,
} from '../support/test-app.js';
import { buildCli, runBuilt, runBuiltOnTerminal } from './built-cli.js';

interface InstancesBody {
  success: true;
  data: {
    instances: InstanceRecord[];
    pagination: { total: number; limit: number; offset: number; has_more: boolean };
    metadata: { cached: boolean; query_time_ms: number; filters_applied: Record<string, unknown> };
  };
}

interface RecommendBody {
  success: true;
  data: {
    requirements: { min_memory_mb: number; min_vcpu: number };
    recommendations: {
      rank: number;
      instance_id: string;
      region_code: string;
      price: { monthly: number };
    }[];
  };
}

// Each test starts the built command a few times; a loaded 2-core machine makes that slow.
vi.setConfig({ testTimeout: 180_000 });

beforeAll(async () => {
  await buildCli();
}, 240_000);

for (const backend of await storeBackends()) {
  describeStoreBackend('cloudprice instances and recommend (built binary)', backend, () => {
    let db: IsolatedDatabase;
    let dataDir: string;
    let env: Record<string, string>;
    let api: TestApp | undefined;

    /** The same question asked over HTTP, of an app on the same database. */
    async function viaApi<T>(method: 'GET' | 'POST', url: string, payload?: unknown): Promise<T> {
      api ??= await createTestApp({ DATABASE_URL: db.url });
      const response = await api.app.inject({
        method,
        url,
        headers: auth,
        ...(payload !== undefined && { payload: payload as Record<string, unknown> }),
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json<T>();
    }

    beforeAll(async () => {
      db = await backend.isolate();
      dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-cli-query-'));
      env = {
        DATA_DIR: dataDir,
        DATABASE_URL: db.url,
        API_KEYS: TEST_API_KEY,
        ...fixtureSources(),
      };
    });
    afterAll(async () => {
      await api?.close();
      await db.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('on a never-synced catalogue, instances and recommend exit 4 and say to sync', async () => {
      const instances = await runBuilt(['instances'], env);
      expect([instances.code, instances.stdout], instances.stderr).toEqual([4, '']);
      expect(instances.stderr).toBe(
        'cloudprice instances: the catalogue is empty; run `cloudprice sync` first\n',
      );
      const recommend = await runBuilt(['recommend', '--stack', 'nginx', '--scale', 'small'], env);
      expect(recommend.code).toBe(4);
      expect(recommend.stderr).toContain('run `cloudprice sync` first');
    });

    it('sync (not on a terminal) prints its table and no progress line', async () => {
      const run = await runBuilt(['sync'], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toMatch(
        /^PROVIDER +STATUS +REGIONS +INSTANCES +PRICES +DURATION +ERROR\n/,
      );
      expect(run.stdout).toContain('3 of 3 provider(s) synced');
      expect(run.stderr).toBe('');
    });

    it('instances prints an aligned table: a header, one row per record, a summary line', async () => {
      const run = await runBuilt(['instances', '--provider', 'provider_b', '--limit', '5'], env);
      expect(run.code, run.stderr).toBe(0);
      const lines = run.stdout.trimEnd().split('\n');
      expect(lines[0]).toMatch(
        /^PROVIDER +REGION +INSTANCE +VCPU +MEMORY_GB +STORAGE_GB +GPU +ARCH +ALLOCATION +COREMARK +HOURLY_USD +MONTHLY_USD$/,
      );
      const rows = lines.slice(1, 6);
      expect(rows.every((row) => row.startsWith('provider_b '))).toBe(true);
      // Aligned: every row as long as the header (right-aligned numbers end in the same column).
      expect(new Set(rows.map((row) => row.length))).toEqual(new Set([lines[0]!.length]));
      const { data } = await viaApi<InstancesBody>('GET', '/instances?provider=provider_b&limit=5');
      expect(rows.map((row) => row.split(/ +/)[2])).toEqual(
        data.instances.map((r) => r.instance_id),
      );
      expect(rows.map((row) => row.split(/ +/).at(-1))).toEqual(
        data.instances.map((r) => r.pricing.monthly_price.toFixed(2)),
      );
      expect(lines[6]).toBe('');
      expect(lines[7]).toMatch(
        new RegExp(
          `^1-5 of ${data.pagination.total} record\\(s\\); --offset for more; last sync \\d{4}-`,
        ),
      );
    });

    it('--format json is the body GET /instances gives for the same filters', async () => {
      const args = ['--min-vcpu', '2', '--max-memory', '16', '--sort', 'vcpu', '--order', 'desc'];
      const query = 'min_vcpu=2&max_memory_gb=16&sort_by=vcpu&order=desc&limit=20&offset=3';
      const run = await runBuilt(
        ['instances', ...args, '--limit', '20', '--offset', '3', '--format', 'json'],
        env,
      );
      expect(run.code, run.stderr).toBe(0);
      const cli = JSON.parse(run.stdout) as InstancesBody;
      const http = await viaApi<InstancesBody>('GET', `/instances?${query}`);
      expect(cli.data.instances).toHaveLength(20);
      expect(cli.data.instances).toEqual(http.data.instances);
      expect(cli.data.pagination).toEqual(http.data.pagination);
      expect(cli.data.metadata.filters_applied).toEqual({ min_vcpu: 2, max_memory_gb: 16 });
    });

    it('--format csv: D47 columns then arch, cpu_allocation, coremark; the same records in the same order', async () => {
      const run = await runBuilt(
        ['instances', '--region', 'nrt', '--limit', '30', '--format', 'csv'],
        env,
      );
      expect(run.code, run.stderr).toBe(0);
      const rows = parseCsv(run.stdout);
      expect(rows[0]).toEqual([...INSTANCE_CSV_COLUMNS, ...MACHINE_FACT_CSV_COLUMNS]);
      const http = await viaApi<InstancesBody>('GET', '/instances?region=nrt&limit=30');
      expect(rows.slice(1).map((r) => [r[0], r[4], r[15], r[16], r[17], r[18], r[19]])).toEqual(
        http.data.instances.map((r) => [
          String(r.id),
          r.instance_id,
          String(r.pricing.monthly_price),
          'USD',
          r.cpu.architecture ?? '',
          r.cpu.allocation ?? '',
          r.benchmark === null ? '' : String(r.benchmark.coremark),
        ]),
      );
    });

    it('--arch and --cpu-allocation filter as GET /instances arch and cpu_allocation do (D62)', async () => {
      const run = await runBuilt(
        [
          'instances',
          '--arch',
          'arm64',
          '--cpu-allocation',
          'burstable',
          '--sort',
          'coremark_per_price',
          '--order',
          'desc',
          '--format',
          'json',
        ],
        env,
      );
      expect(run.code, run.stderr).toBe(0);
      const cli = JSON.parse(run.stdout) as InstancesBody;
      const http = await viaApi<InstancesBody>(
        'GET',
        '/instances?arch=arm64&cpu_allocation=burstable&sort_by=coremark_per_price&order=desc',
      );
      expect(cli.data.instances.length).toBeGreaterThan(0);
      expect(cli.data.instances).toEqual(http.data.instances);
      expect(cli.data.metadata.filters_applied).toMatchObject({
        arch: 'arm64',
        cpu_allocation: 'burstable',
      });
      // The table names both facts on every row.
      const table = await runBuilt(['instances', '--arch', 'arm64', '--limit', '5'], env);
      expect(table.code, table.stderr).toBe(0);
      const rows = table.stdout.split('\n').slice(1, 6);
      expect(rows.every((row) => / arm64 +(dedicated|shared|burstable|-) /.test(row))).toBe(true);
    });

    it('--purchase-option prices instances and recommendations as the API does (D61)', async () => {
      const cli = await runBuilt(
        ['instances', '--purchase-option', 'reserved_3y', '--limit', '20', '--format', 'json'],
        env,
      );
      expect(cli.code, cli.stderr).toBe(0);
      const http = await viaApi<InstancesBody>(
        'GET',
        '/instances?purchase_option=reserved_3y&limit=20',
      );
      expect(http.data.instances.length).toBeGreaterThan(0);
      expect((JSON.parse(cli.stdout) as InstancesBody).data.instances).toEqual(http.data.instances);
      const table = await runBuilt(
        ['instances', '--purchase-option', 'reserved_3y', '--limit', '5'],
        env,
      );
      expect(table.code, table.stderr).toBe(0);
      expect(table.stdout).toContain('; prices: reserved_3y;');
      const recommend = await runBuilt(
        ['recommend', '--stack', 'nginx', '--scale', 'small', '--purchase-option', 'reserved_1y'],
        env,
      );
      expect(recommend.code, recommend.stderr).toBe(0);
      expect(recommend.stdout).toContain('Prices: reserved_1y.');
      const bad = await runBuilt(
        ['recommend', '--stack', 'nginx', '--scale', 'small', '--purchase-option', 'spotty'],
        env,
      );
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('--purchase-option: ');
    });

    // Regression (issue 13): `--format csv` was held to the JSON page (1..100, default 50), so an
    // export needed one call per 100 rows. A CSV export is the whole filtered result up to the
    // API's CSV cap (D47: 10,000), and --limit/--offset still narrow it.
    it('--format csv without --limit writes every matching record; --limit takes 1..10,000', async () => {
      const http = await viaApi<InstancesBody>('GET', '/instances?sort_by=vcpu&limit=1');
      const total = http.data.pagination.total;
      expect(total).toBeGreaterThan(100);
      const all = await runBuilt(['instances', '--sort', 'vcpu', '--format', 'csv'], env);
      expect([all.code, all.stderr]).toEqual([0, '']);
      const rows = parseCsv(all.stdout).slice(1);
      expect(rows).toHaveLength(total);
      const exported = await api!.app.inject({
        method: 'GET',
        url: '/instances?sort_by=vcpu&format=csv&limit=10000',
        headers: auth,
      });
      // D47's columns are the API's CSV cell for cell; the CLI's three follow them.
      const d47 = all.stdout
        .split('\r\n')
        .map((line) => (line === '' ? line : line.replace(/(,[^,]*){3}$/, '')));
      expect(d47.join('\r\n')).toBe(exported.body);

      const page = await runBuilt(
        ['instances', '--sort', 'vcpu', '--limit', '101', '--offset', '7', '--format', 'csv'],
        env,
      );
      expect(page.code, page.stderr).toBe(0);
      expect(parseCsv(page.stdout).slice(1)).toEqual(rows.slice(7, 108));
      // Narrower than the whole result: stderr says how to get the rest (stdout stays CSV).
      expect(page.stderr).toBe(
        `cloudprice instances: records 8-108 of ${total} written; --offset for more\n`,
      );

      const tooMany = await runBuilt(['instances', '--limit', '10001', '--format', 'csv'], env);
      expect([tooMany.code, tooMany.stdout]).toEqual([2, '']);
      expect(tooMany.stderr).toMatch(
        /^cloudprice instances: --limit "10001": must be from 1 to 10000\n/,
      );
      const table = await runBuilt(['instances', '--limit', '101'], env);
      expect([table.code, table.stdout]).toEqual([2, '']);
      expect(table.stderr).toMatch(/^cloudprice instances: --limit "101": must be from 1 to 100\n/);
    });

    it('--currency converts as the API does; an unknown currency is a usage error (2)', async () => {
      const run = await runBuilt(
        ['instances', '--limit', '3', '--currency', 'JPY', '--format', 'json'],
        env,
      );
      expect(run.code, run.stderr).toBe(0);
      const http = await viaApi<InstancesBody>('GET', '/instances?limit=3&currency=JPY');
      expect((JSON.parse(run.stdout) as InstancesBody).data.instances).toEqual(http.data.instances);
      const table = await runBuilt(['instances', '--limit', '3', '--currency', 'JPY'], env);
      expect(table.stdout.split('\n')[0]).toMatch(/HOURLY_JPY +MONTHLY_JPY$/);
      // Yen have no minor unit: whole monthly amounts.
      expect(table.stdout.split('\n')[1]).toMatch(/ \d+$/);

      const bad = await runBuilt(['instances', '--currency', 'XXX'], env);
      expect([bad.code, bad.stdout]).toEqual([2, '']);
      expect(bad.stderr).toMatch(
        /^cloudprice instances: --currency "XXX": is not one of the allowed values \(allowed: USD, [A-Z, ]+\)\n/,
      );
    });

    it('a filter matching nothing exits 3; json still prints the (empty) body', async () => {
      const table = await runBuilt(['instances', '--max-price', '0.01'], env);
      expect([table.code, table.stdout]).toEqual([3, '']);
      expect(table.stderr).toBe('cloudprice instances: no instance matches (0 in total)\n');
      const json = await runBuilt(['instances', '--max-price', '0.01', '--format', 'json'], env);
      expect(json.code).toBe(3);
      expect((JSON.parse(json.stdout) as InstancesBody).data.instances).toEqual([]);
    });

    it('recommend prints the requirements and a ranked table; json is POST /recommend data', async () => {
      const args = ['--stack', 'nginx,nodejs', '--scale', 'medium', '--limit', '5'];
      const table = await runBuilt(['recommend', ...args], env);
      expect(table.code, table.stderr).toBe(0);
      const body = { stack: ['nginx', 'nodejs'], scale: 'medium', limit: 5 };
      const http = await viaApi<RecommendBody>('POST', '/recommend', body);
      const { min_vcpu, min_memory_mb } = http.data.requirements;
      const lines = table.stdout.trimEnd().split('\n');
      expect(lines[0]).toBe(`Needs at least ${min_vcpu} vCPU and ${min_memory_mb} MB memory.`);
      expect(lines[2]).toMatch(
        /^RANK +PROVIDER +REGION +INSTANCE +VCPU +MEMORY_GB +MONTHLY_USD +SCORE +NOTES$/,
      );
      expect(lines.slice(3).map((line) => line.trim().split(/ +/).slice(0, 4))).toEqual(
        http.data.recommendations.map((r): unknown[] => [
          String(r.rank),
          expect.any(String),
          r.region_code,
          r.instance_id,
        ]),
      );

      const json = await runBuilt(['recommend', ...args, '--format', 'json'], env);
      expect(json.code, json.stderr).toBe(0);
      expect((JSON.parse(json.stdout) as RecommendBody).data).toEqual(http.data);
    });

    it('recommend with a budget and filters asks exactly what the API is asked', async () => {
      const args = [
        '--stack',
        'postgresql',
        '--scale',
        'small',
        '--budget',
        '20',
        '--providers',
        'provider_a,provider_c',
        '--regions',
        'nrt,ap-northeast-1',
        '--currency',
        'EUR',
      ];
      const json = await runBuilt(['recommend', ...args, '--format', 'json'], env);
      expect(json.code, json.stderr).toBe(0);
      const body = {
        stack: ['postgresql'],
        scale: 'small',
        budget_max: 20,
        providers: ['provider_a', 'provider_c'],
        regions: ['nrt', 'ap-northeast-1'],
        currency: 'EUR',
      };
      const http = await viaApi<RecommendBody>('POST', '/recommend', body);
      expect((JSON.parse(json.stdout) as RecommendBody).data).toEqual(http.data);
    });

    it('recommend: unknown stack or scale, a bad budget or a missing option exit 2 with the reason', async () => {
      const cases: [string[], RegExp][] = [
        [
          ['--stack', 'nginx,cobol', '--scale', 'small'],
          /^cloudprice recommend: --stack: .*\(allowed: nginx, /,
        ],
        [
          ['--stack', 'nginx', '--scale', 'huge'],
          /^cloudprice recommend: --scale: .*\(allowed: small, medium, large\)/,
        ],
        [
          ['--stack', 'nginx', '--scale', 'small', '--budget', 'cheap'],
          /^cloudprice recommend: --budget: /,
        ],
        [['--scale', 'small'], /^cloudprice recommend: --stack: /],
      ];
      for (const [args, message] of cases) {
        const run = await runBuilt(['recommend', ...args], env);
        expect([run.code, run.stdout], args.join(' ')).toEqual([2, '']);
        expect(run.stderr).toMatch(message);
      }
    }, 120_000);
  });
}

it('bad values are usage errors (2) naming the option, before the database is opened', async () => {
  const cases: [string[], string][] = [
    [['--min-vcpu', 'two'], '--min-vcpu "two": must be a whole number'],
    [
      ['--provider', 'aws'],
      '--provider "aws": is not one of the allowed values (allowed: provider_a, provider_b, provider_c)',
    ],
    [['--min-vcpu', '8', '--max-vcpu', '2'], '--min-vcpu "8": must not be greater than max_vcpu'],
    [['--limit', '0'], '--limit "0": must be from 1 to 100'],
    [['--format', 'xml'], '--format must be one of table, json, csv, got "xml"'],
    [
      ['--arch', 'sparc'],
      '--arch "sparc": is not one of the allowed values (allowed: x86_64, arm64)',
    ],
    [
      ['--purchase-option', 'reserved'],
      '--purchase-option "reserved": is not one of the allowed values (allowed: on_demand, spot, reserved_1y, reserved_3y, convertible_1y, convertible_3y)',
    ],
  ];
  for (const [args, message] of cases) {
    // A database URL nothing listens on: a usage error must not even try to connect.
    const run = await runBuilt(['instances', ...args], {
      DATABASE_URL: 'postgres://127.0.0.1:1/none',
    });
    expect([run.code, run.stdout], args.join(' ')).toEqual([2, '']);
    expect(run.stderr).toBe(
      `cloudprice instances: ${message}\nRun \`cloudprice instances --help\` for usage.\n`,
    );
  }
}, 120_000);

it('every command answers --help with its usage on stdout, exit 0', async () => {
  for (const command of ['keys', 'instances', 'recommend', 'sync', 'health']) {
    const run = await runBuilt([command, '--help'], {});
    expect([run.code, run.stderr], command).toEqual([0, '']);
    expect(run.stdout).toMatch(new RegExp(`^Usage: cloudprice ${command}`));
  }
  const top = await runBuilt(['--help'], {});
  expect(top.code).toBe(0);
  expect(top.stdout).toMatch(/^ {2}instances \[filters\] /m);
  expect(top.stdout).toMatch(/^ {2}recommend --stack --scale /m);
}, 120_000);

it('a database that cannot be reached is a failure (1), told on stderr', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-cli-query-'));
  try {
    const run = await runBuilt(['instances'], {
      DATA_DIR: dataDir,
      API_KEYS: TEST_API_KEY,
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test',
    });
    expect([run.code, run.stdout]).toEqual([1, '']);
    expect(run.stderr).toMatch(/^cloudprice instances: failed: .*ECONNREFUSED/m);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

it('sync on a terminal shows a progress line per provider, redrawn in place, then the table', async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cloudprice-cli-query-'));
  try {
    const env = { DATA_DIR: dataDir, API_KEYS: TEST_API_KEY, ...fixtureSources() };
    const run = await runBuiltOnTerminal(['sync', 'provider_a', 'provider_b'], env);
    expect(run.code, run.output).toBe(0);
    // Each redraw returns to the line start and clears it; the last one clears it for the table.
    expect(run.output).toContain('\r\x1b[2Ksyncing provider_a, provider_b (0 of 2 done) 0 s');
    const redraws = run.output.split('\r\x1b[2K');
    expect(
      redraws.some((line) =>
        /^syncing provider_[ab] \(1 of 2 done; done: provider_[ab] ok\) \d+ s$/.test(line),
      ),
    ).toBe(true);
    expect(redraws.at(-1)).toMatch(/^PROVIDER +STATUS/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
