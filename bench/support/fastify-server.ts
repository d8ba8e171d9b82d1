// The framework's own ceiling: Fastify 5 with its defaults (no logger, no hooks, no plugins)
// sending the same fixed bytes and headers as bench/support/bare-server.ts, for every GET. Measured
// against the bare server it shows how much of node:http's rate any Fastify app can keep before
// it does anything of its own (docs/performance.md, "Framework ceiling").
// Usage: fastify-server.ts <body file>   (headers in <body file>.headers.json)
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const [bodyFile] = process.argv.slice(2);
const body = readFileSync(bodyFile!);
const headers = JSON.parse(readFileSync(`${bodyFile}.headers.json`, 'utf8')) as Record<
  string,
  string
>;
const app = Fastify();
app.get('/*', (_request, reply) => {
  reply.headers(headers).send(body);
});
const address = await app.listen({ port: 0, host: '127.0.0.1' });
console.log(`listening ${address}`);
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
