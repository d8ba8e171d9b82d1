// Standard Webhooks signatures (https://www.standardwebhooks.com): HMAC-SHA256 over
// `${webhook-id}.${webhook-timestamp}.${body}` with the secret's decoded bytes, base64, sent as
// `webhook-signature: v1,<signature>`.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

const PREFIX = 'whsec_';

/** A new secret: `whsec_` and 32 random bytes in base64. */
export function newWebhookSecret(): string {
  return `${PREFIX}${randomBytes(32).toString('base64')}`;
}

function keyOf(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, 'base64');
}

/** The `webhook-signature` header value for one message. */
export function signMessage(
  secret: string,
  messageId: string,
  timestampSeconds: number,
  body: string,
): string {
  const signature = createHmac('sha256', keyOf(secret))
    .update(`${messageId}.${timestampSeconds}.${body}`)
    .digest('base64');
  return `v1,${signature}`;
}

/**
 * True when one of the space-separated signatures in `header` is valid for the message and the
 * timestamp is within `toleranceSeconds` of `nowSeconds` (replay protection). What a receiver
 * does; the tests' receiver uses it.
 */
export function verifyMessage(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  nowSeconds: number,
  toleranceSeconds = 300,
): boolean {
  const timestamp = Number(headers.timestamp);
  if (!Number.isInteger(timestamp) || Math.abs(nowSeconds - timestamp) > toleranceSeconds) {
    return false;
  }
  const expected = Buffer.from(signMessage(secret, headers.id, timestamp, body));
  return headers.signature.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
