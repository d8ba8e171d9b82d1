// stdin of `cloudprice mcp` before the SDK's stdio transport reads it: one JSON-RPC message per
// line, as the transport expects. A line the transport would drop with no answer (a JSON-RPC
// batch, or text that is not JSON) is answered here with a JSON-RPC error on stdout instead, so
// the assistant learns why (D66): -32600 for a batch (the stdio transport takes one message per
// line), -32700 for a line that does not parse.
import { Transform, type TransformCallback } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

export const BATCH_REFUSED =
  'Invalid Request: JSON-RPC batches are not accepted over stdio; send one message per line';
export const LINE_NOT_JSON = 'Parse error: the line is not valid JSON';

/** The lines to pass on; `refuse` writes a JSON-RPC error line for each one held back. */
export function jsonRpcLines(refuse: (line: string) => void): Transform {
  let pending = '';
  const decoder = new StringDecoder('utf8');
  const check = (line: string): string | undefined => {
    const text = line.trim();
    if (text === '') return line;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      refuse(rpcErrorLine(-32700, LINE_NOT_JSON));
      return undefined;
    }
    if (Array.isArray(parsed)) {
      refuse(rpcErrorLine(-32600, BATCH_REFUSED));
      return undefined;
    }
    return line;
  };
  return new Transform({
    transform(chunk: Buffer | string, _encoding, done: TransformCallback) {
      pending += typeof chunk === 'string' ? chunk : decoder.write(chunk);
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      const passed = lines.map(check).filter((line) => line !== undefined);
      done(null, passed.length === 0 ? undefined : `${passed.join('\n')}\n`);
    },
    flush(done: TransformCallback) {
      pending += decoder.end();
      const last = pending === '' ? undefined : check(pending);
      done(null, last === undefined ? undefined : `${last}\n`);
    },
  });
}

function rpcErrorLine(code: number, message: string): string {
  return `${JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message } })}\n`;
}
