// WRITE_TIMEOUT: a response the client does not read is dropped. Node keeps what a response
// writes in the socket's buffer until the peer reads it, for as long as the connection lives;
// a client that asks for a large answer and never reads held it in memory for ever (150 such
// sockets took a replica from 145 MB to 1.65 GB). A connection with bytes waiting to be
// written that has sent none of them for WRITE_TIMEOUT is destroyed, which frees its buffers.
//
// "Sent" means handed to the kernel: socket.bytesWritten counts bytes still queued in the
// socket, so progress is bytesWritten - writableLength. A connection with nothing queued (idle
// keep-alive, or a request still being worked on, such as a long POST /sync) is never timed
// out here: keepAliveTimeout and REQUEST_TIMEOUT govern those.
//
// What one connection holds is bounded too. Node stops reading a connection while its outgoing
// data exceeds the socket's high-water mark, but only between reads: every request in a chunk
// already read is answered, and its answer queued in memory (one 64 KiB read holds hundreds of
// pipelined requests). So a connection may have at most MAX_PIPELINED requests unanswered;
// the next one closes it. Browsers and HTTP clients do not pipeline, so none is affected.
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

interface Progress {
  sent: number;
  since: number;
}

/**
 * Watches every connection of `server` and destroys one whose queued bytes made no progress for
 * `timeoutMs`. Calls `onDropped` with each destroyed connection. Stops with the server.
 */
export function watchWrites(
  server: Server,
  timeoutMs: number,
  onDropped: (socket: Socket) => void = () => undefined,
): void {
  const watched = new Map<Socket, Progress>();
  server.on('connection', (socket: Socket) => {
    watched.set(socket, { sent: 0, since: performance.now() });
    socket.once('close', () => watched.delete(socket));
  });
  // Checked four times per timeout (at most once a second): a stalled connection goes within
  // 1.25 × WRITE_TIMEOUT; the sweep is a map walk, cheap at MAX_CONNECTIONS.
  const timer = setInterval(
    () => {
      const now = performance.now();
      for (const [socket, progress] of watched) {
        const sent = socket.bytesWritten - socket.writableLength;
        if (socket.writableLength === 0 || sent !== progress.sent) {
          progress.sent = sent;
          progress.since = now;
        } else if (now - progress.since >= timeoutMs) {
          watched.delete(socket);
          socket.destroy();
          onDropped(socket);
        }
      }
    },
    Math.max(10, Math.min(1_000, timeoutMs / 4)),
  );
  timer.unref();
  server.once('close', () => clearInterval(timer));
}

/** Unanswered requests one connection may have; one more closes it. */
export const MAX_PIPELINED = 8;

/**
 * `handler`, except that a request arriving while its connection already has MAX_PIPELINED
 * requests unanswered closes the connection instead of being handled.
 */
export function boundPipelining(
  handler: (request: IncomingMessage, response: ServerResponse) => void,
): (request: IncomingMessage, response: ServerResponse) => void {
  const unanswered = new WeakMap<Socket, number>();
  return (request, response) => {
    const socket = request.socket;
    const count = (unanswered.get(socket) ?? 0) + 1;
    if (count > MAX_PIPELINED) {
      socket.destroy();
      return;
    }
    unanswered.set(socket, count);
    response.once('close', () => unanswered.set(socket, (unanswered.get(socket) ?? 1) - 1));
    handler(request, response);
  };
}
