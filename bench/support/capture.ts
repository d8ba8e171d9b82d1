// What the bare baseline sends: the body and headers the app answered one request with.
import { writeFileSync } from 'node:fs';

/** Headers node:http sets on its own for every response (the bare server sends its own). */
const PER_CONNECTION = ['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding'];

export interface Captured {
  readonly status: number;
  readonly body: Buffer;
  readonly headers: Record<string, string>;
}

export async function capture(url: string, init: RequestInit = {}): Promise<Captured> {
  const response = await fetch(url, init);
  const body = Buffer.from(await response.arrayBuffer());
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!PER_CONNECTION.includes(name)) headers[name] = value;
  });
  return { status: response.status, body, headers };
}

/** Writes `<file>` and `<file>.headers.json` for bench/support/bare-server.ts. */
export function writeForBare(file: string, captured: Captured): void {
  if (captured.status !== 200) {
    throw new Error(`the sample answered ${captured.status}: ${captured.body.toString('utf8')}`);
  }
  writeFileSync(file, captured.body);
  writeFileSync(`${file}.headers.json`, JSON.stringify(captured.headers));
}
