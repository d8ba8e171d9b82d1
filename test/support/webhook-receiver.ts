// A real HTTP receiver of webhooks for tests: it verifies each delivery's Standard Webhooks
// signature the way a user's receiver would (src/events/signing.ts verifyMessage) and answers
// with the statuses a test scripts (500 first, then 200, or never).
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifyMessage } from '../../src/events/signing.js';

export interface ReceivedDelivery {
  readonly id: string;
  readonly timestamp: number;
  readonly signature: string;
  readonly body: string;
  /** The body parsed. */
  readonly event: { type: string; timestamp: string; data: Record<string, unknown> };
  /** Whether the signature verified with the receiver's secret at the header's own time. */
  readonly verified: boolean;
  /** The status the receiver answered (null: it never answered). */
  readonly answered: number | null;
}

/** What to answer: a status, or 'hang' (hold the request open until the receiver closes). */
export type Answer = number | 'hang';

export interface WebhookReceiver {
  readonly url: string;
  readonly received: readonly ReceivedDelivery[];
  /** The secret signatures are checked with (set once the webhook exists). */
  secret: string;
  /** Answers for the next requests, in order; after them, `otherwise`. */
  script(answers: readonly Answer[], otherwise?: Answer): void;
  /** Resolves once `count` deliveries have arrived. */
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(path = '/hook'): Promise<WebhookReceiver> {
  const received: ReceivedDelivery[] = [];
  let queue: Answer[] = [];
  let otherwise: Answer = 200;
  const hanging = new Set<ServerResponse>();
  const waiters = new Set<() => void>();
  const receiver = {
    secret: '',
    received,
  };

  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = (name: string) => String(request.headers[name] ?? '');
      const timestamp = Number(header('webhook-timestamp'));
      const answer = request.url === path ? (queue.shift() ?? otherwise) : 404;
      received.push({
        id: header('webhook-id'),
        timestamp,
        signature: header('webhook-signature'),
        body,
        event: JSON.parse(body) as ReceivedDelivery['event'],
        // The sender's clock may be a test's moved clock: check the signature at the header's
        // time (the tolerance check itself is verifyMessage's and is tested on its own).
        verified: verifyMessage(
          receiver.secret,
          {
            id: header('webhook-id'),
            timestamp: header('webhook-timestamp'),
            signature: header('webhook-signature'),
          },
          body,
          timestamp,
        ),
        answered: answer === 'hang' ? null : answer,
      });
      for (const wake of waiters) wake();
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(answer, { 'content-type': 'text/plain' }).end(`answered ${answer}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}${path}`,
    script(answers: readonly Answer[], fallback: Answer = 200) {
      queue = [...answers];
      otherwise = fallback;
    },
    waitFor(count: number, timeoutMs = 30_000) {
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${received.length} of ${count} deliveries within ${timeoutMs} ms`));
        }, timeoutMs);
        const check = () => {
          if (received.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
        check();
      });
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}
