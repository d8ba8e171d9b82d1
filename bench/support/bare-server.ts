// The baseline: a bare node:http server sending fixed bytes with the same headers our API sends.
// Usage: bare-server.ts <body file> <status>
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const [bodyFile, status = '200'] = process.argv.slice(2);
const body = readFileSync(bodyFile!);
const headers = JSON.parse(readFileSync(`${bodyFile}.headers.json`, 'utf8')) as Record<
  string,
  string
>;
const server = createServer((request, response) => {
  // Read the request body (if any) like a real server must, then answer.
  request.resume();
  request.on('end', () => {
    response.writeHead(Number(status), headers);
    response.end(body);
  });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (typeof address === 'object' && address)
    console.log(`listening http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
