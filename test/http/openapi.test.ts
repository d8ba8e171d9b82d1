// The OpenAPI document is generated from the route schemas; this keeps it true by validating
// real responses of every endpoint, successes and errors, against it.
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INSTANCE_CSV_COLUMNS } from '../../src/catalog/instance-csv.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { parseCsv } from '../support/parse-csv.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface OpenApiDocument {
  openapi: string;
  paths: Record<
    string,
    Record<
      string,
      {
        responses: Record<string, unknown>;
        parameters?: Array<{ name: string; required?: boolean }>;
      }
    >
  >;
}

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

describe('GET /openapi.json', () => {
  let t: TestApp;
  let doc: OpenApiDocument;
  let ajv: Ajv;

  beforeAll(async () => {
    t = await createTestApp();
    await loadCatalogs(t.services.store, generateCatalogs(120, 5));
    const response = await t.app.inject({ method: 'GET', url: '/openapi.json', headers: auth });
    expect(response.statusCode).toBe(200);
    doc = response.json<OpenApiDocument>();
    ajv = new Ajv({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema(doc, 'openapi');
  });
  afterAll(() => t.close());

  it('is OpenAPI 3.1 and describes every endpoint with its error codes', () => {
    expect(doc.openapi).toBe('3.1.0');
    expect(Object.keys(doc.paths).sort()).toEqual([
      '/changes',
      '/health',
      '/instance-types',
      '/instances',
      '/instances/{id}/history',
      '/mcp',
      '/openapi.json',
      '/recommend',
      '/regions',
      '/sync',
      '/webhooks',
      '/webhooks/{id}',
    ]);
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const operation of Object.values(methods)) {
        const statuses = Object.keys(operation.responses);
        expect(statuses, path).toEqual(expect.arrayContaining(['401', '429']));
        expect(
          statuses.some((status) => /^2\d\d$/.test(status)),
          path,
        ).toBe(true);
      }
    }
    // Every /instances parameter is optional (spec 4.2).
    expect(doc.paths['/instances']!.get!.parameters!.filter((p) => p.required === true)).toEqual(
      [],
    );
    const parameters = doc.paths['/instances']!.get!.parameters!.map((p) => p.name).sort();
    expect(parameters).toEqual(
      [
        'provider',
        'region',
        'city',
        'min_vcpu',
        'max_vcpu',
        'min_memory_gb',
        'max_memory_gb',
        'max_price',
        'instance_family',
        'has_gpu',
        'sort_by',
        'order',
        'limit',
        'offset',
        'currency',
        'as_of',
        'q',
        'format',
        // Machine facts (D62, extension).
        'arch',
        'cpu_allocation',
        // Purchase options (D61, extension).
        'purchase_option',
      ].sort(),
    );
  });

  it('declares the CSV answer of GET /instances with an example our writer produced', async () => {
    const ok = doc.paths['/instances']!['get']!.responses['200'] as {
      content: Record<string, { example?: unknown }>;
      headers?: Record<string, unknown>;
    };
    expect(Object.keys(ok.content).sort()).toEqual(['application/json', 'text/csv']);
    const example = ok.content['text/csv']!.example;
    expect(typeof example).toBe('string');
    const rows = parseCsv(example as string);
    expect(rows[0]).toEqual([...INSTANCE_CSV_COLUMNS]);
    expect(rows).toHaveLength(2);
    expect(Object.keys(ok.headers ?? {}).sort()).toEqual(['Content-Disposition', 'X-Total-Count']);
    // The header row the document shows is the one a real CSV answer starts with.
    const response = await t.app.inject({
      method: 'GET',
      url: '/instances?format=csv&limit=1',
      headers: auth,
    });
    expect(response.statusCode).toBe(200);
    expect(parseCsv(response.body)[0]).toEqual(rows[0]);
  });

  it('rejects a response that breaks the document (the check can fail)', () => {
    const validate = ajv.getSchema(
      `openapi#/${pointer('paths', '/instances', 'get', 'responses', '200', 'content', 'application/json', 'schema')}`,
    )!;
    expect(validate({ success: true, data: { instances: [{ id: 'x' }] } })).toBe(false);
  });

  const requests: Array<[label: string, request: InjectOptions, status: number]> = [
    ['instances page', { method: 'GET', url: '/instances?limit=5&sort_by=vcpu' }, 200],
    ['instances cached page', { method: 'GET', url: '/instances?limit=5&sort_by=vcpu' }, 200],
    ['instances invalid', { method: 'GET', url: '/instances?limit=0' }, 400],
    ['instances by city', { method: 'GET', url: '/instances?city=tokyo,seoul&limit=5' }, 200],
    ['instances city invalid', { method: 'GET', url: '/instances?city=Tokyo' }, 400],
    ['instance types', { method: 'GET', url: '/instance-types?limit=3' }, 200],
    ['instance types by city', { method: 'GET', url: '/instance-types?columns=city&limit=3' }, 200],
    ['regions', { method: 'GET', url: '/regions' }, 200],
    ['instances unauthorised', { method: 'GET', url: '/instances', headers: {} }, 401],
    ['health', { method: 'GET', url: '/health' }, 200],
    [
      'recommend',
      {
        method: 'POST',
        url: '/recommend',
        payload: { stack: ['nginx', 'mysql'], scale: 'medium', budget_max: 40 },
      },
      200,
    ],
    [
      'recommend by city',
      {
        method: 'POST',
        url: '/recommend',
        payload: { stack: ['nginx'], scale: 'small', cities: ['osaka'] },
      },
      200,
    ],
    [
      'recommend invalid stack',
      { method: 'POST', url: '/recommend', payload: { stack: ['cobol'], scale: 'small' } },
      400,
    ],
    ['sync invalid', { method: 'POST', url: '/sync', payload: { providers: ['nope'] } }, 400],
    [
      'sync',
      { method: 'POST', url: '/sync', payload: { providers: ['provider_a'], force: true } },
      200,
    ],
    ['instances as_of', { method: 'GET', url: '/instances?as_of=2026-01-01&limit=3' }, 200],
    ['instances as_of invalid', { method: 'GET', url: '/instances?as_of=2999-01-01' }, 400],
    ['changes', { method: 'GET', url: '/changes?since=2000-01-01&limit=3' }, 200],
    ['changes invalid', { method: 'GET', url: '/changes?kind=nope' }, 400],
    ['history', { method: 'GET', url: '/instances/1/history' }, 200],
    ['history unknown', { method: 'GET', url: '/instances/987654/history' }, 404],
    ['history invalid', { method: 'GET', url: '/instances/x/history' }, 400],
    // An address literal on the public internet: accepted without any name lookup.
    [
      'webhook created',
      {
        method: 'POST',
        url: '/webhooks',
        payload: { url: 'https://93.184.215.14/hook', events: ['price.changed'] },
      },
      201,
    ],
    ['webhooks', { method: 'GET', url: '/webhooks' }, 200],
    [
      'webhook invalid',
      { method: 'POST', url: '/webhooks', payload: { url: 'http://127.0.0.1/', events: ['x'] } },
      400,
    ],
    ['webhook unknown', { method: 'DELETE', url: '/webhooks/wh_nope' }, 404],
  ];

  it.each(requests)('%s matches its documented response', async (_label, request, status) => {
    const response = await t.app.inject({ ...request, headers: request.headers ?? auth });
    expect(response.statusCode).toBe(status);
    const path = (request.url as string)
      .split('?')[0]!
      .replace(/^\/instances\/[^/]+\/history$/, '/instances/{id}/history')
      .replace(/^\/webhooks\/[^/]+$/, '/webhooks/{id}');
    const method = String(request.method).toLowerCase();
    const ref = `openapi#/${pointer('paths', path, method, 'responses', String(status), 'content', 'application/json', 'schema')}`;
    const validate = ajv.getSchema(ref);
    expect(validate, ref).toBeDefined();
    const valid = validate!(response.json());
    expect(validate!.errors ?? [], JSON.stringify(response.json()).slice(0, 500)).toEqual([]);
    expect(valid).toBe(true);
  });
});
