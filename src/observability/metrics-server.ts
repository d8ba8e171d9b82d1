// The Prometheus listener (D51): its own port (METRICS_PORT) and address (METRICS_HOST, default
// 127.0.0.1), no key, nothing but GET /metrics. Kept off the API port so scrapes are neither
// rate limited nor counted as API traffic, and the endpoint is not exposed with the API.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';
import { boundPipelining, watchWrites } from '../infra/write-watchdog.js';

export interface MetricsServer {
  /** `http://host:port` */
  readonly url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(
  registry: Registry,
  host: string,
  port: number,
  writeTimeoutMs = 30_000,
): Promise<MetricsServer> {
  const server: Server = createServer(
    boundPipelining((request, response) => {
      const path = (request.url ?? '/').split('?', 1)[0];
      if (path !== '/metrics') {
        response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found\n');
        return;
      }
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        response.writeHead(405, { allow: 'GET, HEAD' }).end();
        return;
      }
      registry.metrics().then(
        (text) => {
          response.writeHead(200, { 'content-type': registry.contentType });
          response.end(request.method === 'HEAD' ? undefined : text);
        },
        () => response.writeHead(500).end(),
      );
    }),
  );
  server.requestTimeout = 10_000;
  // A scraper that stops reading holds its answer only this long (the API's WRITE_TIMEOUT).
  watchWrites(server, writeTimeoutMs);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ port, host }, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
