// The baseline: a bare node:http server sending fixed bytes with the same headers our API sent
// for the same request (captured by the harness). A request body is read whole and, when there
// is one, parsed as JSON, as the least any real POST handler must do.
// Usage: bare-server.ts <body file>   (headers in <body file>.headers.json)
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [bodyFile] = process.argv.slice(2);
const body = readFileSync(bodyFile!);
const headers = JSON.parse(readFileSync(`${bodyFile}.headers.json`, 'utf8')) as Record<
  string,
  string
>;
let parsed = 0;
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    if (chunks.length > 0) {
      const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (value !== null) parsed += 1;
    }
    response.writeHead(200, headers);
    response.end(body);
  });
});
server.keepAliveTimeout = 72_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (typeof address === 'object' && address)
    console.log(`listening http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => {
  console.log(`LOG ${JSON.stringify({ msg: 'bodies parsed', parsed })}`);
  server.close(() => process.exit(0));
});
