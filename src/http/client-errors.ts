// Errors Node's HTTP parser raises before Fastify sees a request (a request that outlives
// REQUEST_TIMEOUT, headers over Node's size limit, bytes that are not HTTP). Node answers these
// on the socket itself, and Fastify's default handler writes its own body shape; D4 wants our
// envelope on every response, so this handler writes it, with the headers every response has.
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { ERROR_STATUS, errorBody, type ErrorCode } from '../api/errors.js';
import { SECURITY_HEADERS } from './security-headers.js';

const BY_NODE_CODE: Readonly<Record<string, { code: ErrorCode; message: string }>> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    code: 'REQUEST_TIMEOUT',
    message: 'The request was not received completely within the request timeout',
  },
  HPE_HEADER_OVERFLOW: {
    code: 'HEADERS_TOO_LARGE',
    message: 'Request headers are larger than the server accepts',
  },
};
const MALFORMED = {
  code: 'MALFORMED_REQUEST',
  message: 'The request is not valid HTTP/1.1',
} as const;

// Constant header lines, built once. CORS cannot be decided here (no parsed Origin), and the
// connection is closed after the answer.
const FIXED_HEADER_LINES = Object.entries({
  ...SECURITY_HEADERS,
  'content-type': 'application/json; charset=utf-8',
  connection: 'close',
})
  .map(([name, value]) => `${name}: ${value}\r\n`)
  .join('');

/** The raw HTTP/1.1 response for a client error, in the error envelope. */
export function clientErrorResponse(nodeCode: string | undefined, requestId: string): string {
  const { code, message } = BY_NODE_CODE[nodeCode ?? ''] ?? MALFORMED;
  const status = ERROR_STATUS[code];
  const body = JSON.stringify(errorBody(code, message));
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${FIXED_HEADER_LINES}` +
    `x-request-id: ${requestId}\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

/** Fastify's `clientErrorHandler` option (called with the Fastify instance as `this`). */
export function handleClientError(
  this: FastifyInstance,
  error: NodeJS.ErrnoException,
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // A response already under way on this socket cannot be followed by another one: writing it
  // would corrupt what the client reads, so the connection is only closed.
  const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
  if (socket.writable && inFlight?.headersSent !== true) {
    const requestId = randomUUID();
    this.log.info({ err: error, reqId: requestId }, 'client error before routing');
    socket.write(clientErrorResponse(error.code, requestId));
  }
  socket.destroy();
}
