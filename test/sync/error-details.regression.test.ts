// Regression test for issue 15 item 9, "worker and parser internals reach /sync error_details":
// the detail of a failed provider (upstream paths, byte offsets, parser and worker texts) goes to
// the log; the client gets the code and that code's fixed message (D4).
import { afterAll, beforeAll, expect, it, describe } from 'vitest';
import { UPSTREAM_ERROR_MESSAGES } from '../../src/sync/upstream/upstream-error.js';
import { startFakeUpstream, type FakeUpstream } from '../support/fake-upstream.js';
import { auth, createTestApp, type TestApp } from '../support/test-app.js';

describe('POST /sync error_details carry a coded message, not internals (issue 15 item 9)', () => {
  let fake: FakeUpstream;
  let t: TestApp;
  beforeAll(async () => {
    fake = await startFakeUpstream();
    t = await createTestApp({ PROVIDER_A_URL: `${fake.url}/provider_a` });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });

  it('a malformed upstream document is reported by code, without its path or the parser text', async () => {
    fake.setFault('/provider_a/regions', { kind: 'malformed-json' });
    const response = await t.app.inject({ method: 'POST', url: '/sync', headers: auth });
    const body = response.json<{
      error: {
        details: { providers: Array<{ error: string; error_details: { message: string } }> };
      };
    }>();
    const result = body.error.details.providers[0]!;
    expect(result.error_details).toEqual({
      code: 'UPSTREAM_INVALID_DATA',
      message: UPSTREAM_ERROR_MESSAGES.UPSTREAM_INVALID_DATA,
    });
    expect(result.error).toBe(UPSTREAM_ERROR_MESSAGES.UPSTREAM_INVALID_DATA);
    expect(JSON.stringify(result)).not.toMatch(
      /\/regions|127\.0\.0\.1|JSON|Unexpected|\.ts\b|\.js\b/,
    );
  });
});
