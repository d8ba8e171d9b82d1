import { describe, expect, it } from 'vitest';
import { signMessage, verifyMessage } from './signing.js';

describe('Standard Webhooks signatures', () => {
  const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw9ZdunzYx3Tk=';
  const body = '{"type":"sync.failed"}';
  const headers = (
    timestamp: number,
    signature = signMessage(secret, 'msg_1', timestamp, body),
  ) => ({
    id: 'msg_1',
    timestamp: String(timestamp),
    signature,
  });

  it('signs id.timestamp.body with the decoded secret (value computed apart, with Python hmac)', () => {
    expect(
      signMessage(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, '{"test": 2432232314}'),
    ).toBe('v1,/ddbjsZeRdBnI0ErSpFBeGAxcWOrbb1aIOJ9cPhjq/U=');
  });

  it('accepts a valid signature within the tolerance and refuses the rest', () => {
    expect(verifyMessage(secret, headers(1_000), body, 1_000)).toBe(true);
    expect(
      verifyMessage(
        secret,
        headers(1_000, `v1,bad v1,x ${signMessage(secret, 'msg_1', 1_000, body)}`),
        body,
        1_000,
      ),
    ).toBe(true);
    expect(verifyMessage(secret, headers(1_000), body, 1_301)).toBe(false);
    expect(verifyMessage(secret, headers(1_000), `${body} `, 1_000)).toBe(false);
    expect(verifyMessage('whsec_AAAA', headers(1_000), body, 1_000)).toBe(false);
    expect(verifyMessage(secret, { ...headers(1_000), id: 'msg_2' }, body, 1_000)).toBe(false);
  });
});
