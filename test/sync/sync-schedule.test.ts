// The SYNC_INTERVAL schedule with the real services: what is due is synced at once (not a whole
// interval after a restart), what is fresh is left alone, and a very long interval does not
// overflow Node's timer into a sync attempt every millisecond.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scheduleSyncs } from '../../src/sync/sync-schedule.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';
import { eventually, sleep, waitFor } from '../support/wait.js';

const HOUR = 3_600_000;

describe('scheduleSyncs', () => {
  let t: TestApp;
  let fake: FakeUpstream;
  const errors: unknown[] = [];
  const onError = (error: unknown) => errors.push(error);
  const requestsFor = (provider: string) =>
    fake.requests.filter((r) => r.path.startsWith(`/${provider}/`)).length;

  beforeAll(async () => {
    fake = await startFakeUpstream();
    t = await createTestApp({
      PROVIDER_A_URL: `${fake.url}/provider_a`,
      PROVIDER_B_URL: `${fake.url}/provider_b`,
      PROVIDER_C_URL: `${fake.url}/provider_c`,
      UPSTREAM_MAX_RETRIES: '0',
    });
    // provider_b and provider_c are fresh; provider_a has never synced, so it is due.
    const response = await t.app.inject({
      method: 'POST',
      url: '/sync',
      headers: auth,
      payload: { providers: ['provider_b', 'provider_c'] },
    });
    expect(response.statusCode).toBe(200);
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('does not turn an interval longer than 24.8 days into a sync attempt every millisecond', async () => {
    // provider_a fails every time, so it stays due and every tick would try it again.
    fake.setFault('/provider_a/', { kind: 'status', status: 503 });
    fake.clearRequests();
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    const stop = scheduleSyncs(t.services.store, t.services.sync, 1000 * HOUR, onError);
    try {
      await waitFor(() => requestsFor('provider_a') >= 1, 10_000);
      await sleep(500);
    } finally {
      stop();
      process.off('warning', onWarning);
      fake.setFault('/provider_a/', null);
    }
    // The check at start, and nothing more for 24.8 days.
    expect(requestsFor('provider_a')).toBe(1);
    expect(warnings).not.toContain('TimeoutOverflowWarning');
  });

  it('syncs what is due at once, and only that', async () => {
    fake.clearRequests();
    const stop = scheduleSyncs(t.services.store, t.services.sync, 6 * HOUR, onError);
    try {
      // The sync commits after its last upstream response, so wait for the commit itself:
      // reading the store as soon as the requests finished raced the transaction (a CI failure).
      await eventually(async () => {
        const states = await t.services.store.providerStates();
        const a = states.find((s) => s.provider === 'provider_a');
        if (a?.lastSuccessAt == null) throw new Error('provider_a has not synced yet');
      }, 10_000);
    } finally {
      stop();
    }
    expect(requestsFor('provider_a')).toBeGreaterThanOrEqual(2);
    expect(fake.requests.every((r) => r.status !== undefined && !r.closedEarly)).toBe(true);
    expect(requestsFor('provider_b')).toBe(0);
    expect(requestsFor('provider_c')).toBe(0);
    expect(errors).toEqual([]);
  });

  it('does nothing when the interval is 0 (schedule off)', async () => {
    fake.clearRequests();
    const stop = scheduleSyncs(t.services.store, t.services.sync, 0, onError);
    await sleep(300);
    stop();
    expect(fake.requests).toHaveLength(0);
  });

  it('stops: no check runs after the stop function was called', async () => {
    fake.clearRequests();
    const stop = scheduleSyncs(t.services.store, t.services.sync, 6 * HOUR, onError);
    stop();
    await sleep(300);
    expect(fake.requests).toHaveLength(0);
  });
});
