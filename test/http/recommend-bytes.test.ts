// POST /recommend writes its answers with JSON.stringify (src/recommend/recommend-memo.ts,
// answerAround), which keeps the members in the order the objects were built. The response
// schema's serializer writes them in the schema's order: these answers must be those bytes,
// so every object's members come in the order of its schema's properties.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RecommendResponse } from '../../src/http/schemas/recommend.js';
import { generateCatalogs, loadCatalogs } from '../support/generate-catalog.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

interface SchemaNode {
  readonly type?: string;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly items?: SchemaNode;
}

/** Every path at which `value`'s members are not in the order of `schema`'s properties. */
function outOfOrder(value: unknown, schema: SchemaNode, path = '$'): string[] {
  if (Array.isArray(value) && schema.items !== undefined) {
    return value.flatMap((item, i) => outOfOrder(item, schema.items!, `${path}[${i}]`));
  }
  if (typeof value !== 'object' || value === null || schema.properties === undefined) return [];
  const expected = Object.keys(schema.properties).filter((key) => key in value);
  const got = Object.keys(value);
  const here =
    got.join() === expected.join() ? [] : [`${path}: ${got.join()} != ${expected.join()}`];
  return [
    ...here,
    ...got.flatMap((key) =>
      schema.properties![key] === undefined
        ? []
        : outOfOrder(
            (value as Record<string, unknown>)[key],
            schema.properties![key],
            `${path}.${key}`,
          ),
    ),
  ];
}

describe('POST /recommend answer bytes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    await loadCatalogs(t.services.store, generateCatalogs(800, 5));
  });
  afterAll(() => t.close());

  it.each([
    { stack: ['nginx', 'nodejs', 'postgresql'], scale: 'medium' },
    { stack: ['mysql', 'redis'], scale: 'large', budget_max: 45.5, limit: 50 },
    { stack: ['nginx', 'redis'], scale: 'small', budget_max: 3000, currency: 'JPY' },
  ])('writes every member in the response schema order: %j', async (payload) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/recommend',
      headers: auth,
      payload,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json<{ data: { recommendations: unknown[] }; meta: object }>();
    expect(body.data.recommendations.length).toBeGreaterThan(0);
    if (payload.currency === 'JPY') expect(body.meta).toHaveProperty('exchange_rate');
    expect(outOfOrder(body, RecommendResponse as SchemaNode)).toEqual([]);
    // Written once, as JSON.stringify writes it: no space, nothing escaped differently.
    expect(response.body).toBe(JSON.stringify(body));
  });

  it('would see a member out of order', () => {
    const schema = RecommendResponse as SchemaNode;
    expect(outOfOrder({ meta: {}, success: true }, schema)).toEqual([
      '$: meta,success != success,meta',
    ]);
    expect(outOfOrder({ data: { recommendations: [{ pros: [], rank: 1 }] } }, schema)).toEqual([
      '$.data.recommendations[0]: pros,rank != rank,pros',
    ]);
  });
});
