// The file:// upstream: a directory holding the same documents an upstream serves (the bundled
// snapshots). Mapping (see upstream-client.ts): the request path is a file under the base
// directory, the query string is ignored, and `.json` is appended when the last segment has no
// extension, so `/linode/types?page=1` reads `<dir>/linode/types.json`.

import { open, realpath } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { addAbortSignal } from 'node:stream';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { UpstreamError } from './upstream-error.js';
import { cappedStream, readAllCapped } from './byte-limit.js';
import { decodeUtf8Body, parseJsonBody } from './json-body.js';
import { startDeadline } from './request-deadline.js';
import { jsonByteCap } from './upstream-client.js';
import type { UpstreamClient, UpstreamClientOptions } from './upstream-client.js';

function notFound(target: string, cause?: unknown): UpstreamError {
  return new UpstreamError('UPSTREAM_HTTP_ERROR', `not found: no such file (${target})`, { cause });
}

function refused(target: string, why: string): UpstreamError {
  return new UpstreamError('UPSTREAM_HTTP_ERROR', `refused: ${why} (${target})`);
}

/**
 * The file that `pathAndQuery` names under `baseDir` (both absolute). Throws UPSTREAM_HTTP_ERROR
 * for a path that is malformed or leaves the base directory (`..`, encoded slashes, NUL).
 */
export function mapUpstreamFilePath(baseDir: string, pathAndQuery: string): string {
  const target = `GET ${pathAndQuery}`;
  const pathOnly = pathAndQuery.split(/[?#]/, 1)[0] ?? '';
  const segments: string[] = [];
  for (const raw of pathOnly.split('/')) {
    let segment: string;
    try {
      segment = decodeURIComponent(raw);
    } catch {
      throw refused(target, 'malformed percent-encoding in the path');
    }
    // A decoded separator or NUL would change which file is meant: refuse rather than guess.
    if (/[/\\\0]/.test(segment)) throw refused(target, 'path segment holds a separator');
    if (segment === '' || segment === '.') continue;
    segments.push(segment);
  }
  const last = segments.at(-1);
  if (last === undefined) throw notFound(target);
  if (path.extname(last) === '') segments[segments.length - 1] = `${last}.json`;
  const root = path.resolve(baseDir);
  const file = path.resolve(root, ...segments);
  if (!file.startsWith(root + path.sep)) throw refused(target, 'path escapes the base directory');
  return file;
}

interface OpenedFile {
  readonly handle: FileHandle;
  readonly size: number;
}

async function openUpstreamFile(
  baseDir: string,
  pathAndQuery: string,
  maxBytes: number,
): Promise<OpenedFile> {
  const target = `GET ${pathAndQuery}`;
  const file = mapUpstreamFilePath(baseDir, pathAndQuery);
  let handle: FileHandle;
  try {
    // Resolve symlinks too: a link inside the snapshots must not lead outside them.
    const [realRoot, realFile] = await Promise.all([realpath(baseDir), realpath(file)]);
    if (!realFile.startsWith(realRoot + path.sep)) {
      throw refused(target, 'path escapes the base directory');
    }
    handle = await open(realFile, 'r');
  } catch (err) {
    if (err instanceof UpstreamError) throw err;
    throw notFound(target, err);
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw notFound(target);
    if (stat.size > maxBytes) throw tooLarge(target, maxBytes);
    return { handle, size: stat.size };
  } catch (err) {
    await handle.close();
    if (err instanceof UpstreamError) throw err;
    throw notFound(target, err);
  }
}

function tooLarge(target: string, maxBytes: number): UpstreamError {
  return new UpstreamError('UPSTREAM_TOO_LARGE', `file exceeds ${maxBytes} bytes (${target})`);
}

export function createFileUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const baseDir = fileURLToPath(new URL(options.baseUrl));
  const streamCap = options.maxResponseBytes;
  const jsonCap = jsonByteCap(options);

  function readFailure(err: unknown, target: string, abortError: () => UpstreamError | undefined) {
    if (err instanceof UpstreamError) return err;
    return (
      abortError() ??
      new UpstreamError('UPSTREAM_NETWORK_ERROR', `could not read the file (${target})`, {
        cause: err,
      })
    );
  }

  /** The whole file under the getJson cap. */
  async function getBytes(pathAndQuery: string, signal: AbortSignal): Promise<Buffer> {
    const target = `GET ${pathAndQuery}`;
    const deadline = startDeadline(signal, options.totalTimeoutMs, target);
    try {
      const before = deadline.abortError();
      if (before) throw before;
      const { handle } = await openUpstreamFile(baseDir, pathAndQuery, jsonCap);
      const stream = addAbortSignal(deadline.signal, handle.createReadStream());
      return await readAllCapped(stream, jsonCap, () => tooLarge(target, jsonCap));
    } catch (err) {
      throw readFailure(err, target, () => deadline.abortError());
    } finally {
      deadline.dispose();
    }
  }

  return {
    baseUrl: options.baseUrl,
    async getJson(pathAndQuery, signal) {
      return parseJsonBody(await getBytes(pathAndQuery, signal), `GET ${pathAndQuery}`);
    },

    async getText(pathAndQuery, signal) {
      return decodeUtf8Body(await getBytes(pathAndQuery, signal), `GET ${pathAndQuery}`);
    },

    async getStream(pathAndQuery, signal): Promise<Readable> {
      const target = `GET ${pathAndQuery}`;
      const deadline = startDeadline(signal, options.totalTimeoutMs, target);
      try {
        const before = deadline.abortError();
        if (before) throw before;
        const { handle } = await openUpstreamFile(baseDir, pathAndQuery, streamCap);
        const source = addAbortSignal(deadline.signal, handle.createReadStream());
        return cappedStream(source, {
          maxBytes: streamCap,
          tooLarge: () => tooLarge(target, streamCap),
          mapError: (err) => readFailure(err, target, () => deadline.abortError()),
          onClose: () => deadline.dispose(),
        });
      } catch (err) {
        deadline.dispose();
        throw readFailure(err, target, () => deadline.abortError());
      }
    },
  };
}
