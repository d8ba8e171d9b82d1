// Issue 35 item 1: WRITE_TIMEOUT on a real server and real sockets. Clients that ask for a
// large answer (far more than the kernel's socket buffers take) and never read: the server
// closes each connection once its answer has made no progress for the timeout, so nothing
// references the answer any more (before, none was ever closed); a connection that
// is merely slow to be answered (nothing queued) is left alone.
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { watchWrites } from '../../src/infra/write-watchdog.js';

const TIMEOUT_MS = 300;
const ANSWER = Buffer.alloc(16 * 1024 * 1024, 'x');
let server: Server | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

async function listen(handler: Parameters<typeof createServer>[1]): Promise<number> {
  server = createServer(handler);
  watchWrites(server, TIMEOUT_MS);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

function nonReader(port: number): Socket {
  const socket = connect({ host: '127.0.0.1', port });
  socket.on('connect', () => socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n'));
  socket.pause();
  socket.on('error', () => undefined);
  return socket;
}

describe('watchWrites', () => {
  it('closes connections whose large answers are not read, so nothing holds their answers', async () => {
    const closed: Promise<void>[] = [];
    const port = await listen((_request, response) => {
      closed.push(new Promise((resolve) => response.once('close', () => resolve())));
      // A copy per answer, as a rendered answer is: 16 MiB each.
      response.end(Buffer.from(ANSWER));
    });
    const clients = Array.from({ length: 10 }, () => nonReader(port));
    await expect.poll(() => closed.length, { timeout: 5_000 }).toBe(10);
    // Every connection is closed by the server (without the watchdog, none ever is).
    await Promise.race([
      Promise.all(closed),
      new Promise((_, reject) => setTimeout(() => reject(new Error('still open')), 10_000)),
    ]);
    for (const client of clients) client.destroy();
  });

  it('leaves a connection alone while its answer is being worked on', async () => {
    const port = await listen((_request, response) => {
      setTimeout(() => response.end('late but fine'), 4 * TIMEOUT_MS);
    });
    const answer = await fetch(`http://127.0.0.1:${port}/`);
    expect(await answer.text()).toBe('late but fine');
  });
});
