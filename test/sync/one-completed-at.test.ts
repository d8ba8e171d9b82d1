// Issue 22, suspected: "one sync carries three different completed_at values". Proven: POST
// /sync's completed_at was the end of the request, /health's last_sync the run's time stamped by
// the apply's last statement, and /changes' `at` (and the history's valid_from) the data time
// taken before the apply. Now a sync has one completed_at, taken when its apply begins, and all
// three show it. Every storage backend, through the real app.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeStoreBackend, storeBackends, type IsolatedDatabase } from '../support/backends.js';
import { auth, createTestApp, FIXED_NOW, type TestApp } from '../support/test-app.js';

for (const backend of await storeBackends()) {
  describeStoreBackend('one completed_at per sync (issue 22)', backend, () => {
    let database: IsolatedDatabase;
    let t: TestApp;

    beforeAll(async () => {
      database = await backend.isolate();
      t = await createTestApp({ DATABASE_URL: database.url });
      t.setNow(FIXED_NOW);
    });
    afterAll(async () => {
      await t.close();
      await database.drop();
    });

    it('the sync report, /health last_sync and every /changes item carry the same instant', async () => {
      const synced = await t.app.inject({
        method: 'POST',
        url: '/sync',
        headers: auth,
        payload: { providers: ['provider_b'] },
      });
      expect(synced.statusCode).toBe(200);
      const completedAt = synced.json<{ data: { completed_at: string } }>().data.completed_at;

      const health = await t.app.inject({ url: '/health', headers: auth });
      const providers = health.json<{
        components: { providers: { name?: string; provider?: string; last_sync: string | null }[] };
      }>().components.providers;
      const b = providers.find((p) => (p.provider ?? p.name) === 'provider_b');
      // /health shows it to the second (spec format), /instances metadata to the millisecond.
      expect(b?.last_sync).toBe(completedAt.slice(0, 19).replace('T', ' '));
      const listed = await t.app.inject({ url: '/instances?limit=1', headers: auth });
      expect(
        listed.json<{ data: { metadata: { last_sync: string } } }>().data.metadata.last_sync,
      ).toBe(completedAt);

      const since = new Date(Date.parse(completedAt) - 60_000).toISOString();
      const feed = await t.app.inject({
        url: `/changes?since=${since}&provider=provider_b&limit=500`,
        headers: auth,
      });
      const changes = feed.json<{ data: { changes: { at: string }[] } }>().data.changes;
      expect(changes.length).toBeGreaterThan(0);
      expect(new Set(changes.map((c) => c.at))).toEqual(new Set([completedAt]));
    });
  });
}
