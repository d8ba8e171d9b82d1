// tools/list from a prebuilt buffer (D66): the list never changes while the server runs, so the
// SDK's own answer to it is taken once per 2025 protocol revision and replayed with the caller's
// id, instead of building a server and serialising the six schemas per request. Only a plain
// tools/list (no cursor, no _meta) from a client that accepts both media types is answered here;
// anything else goes to the SDK, which keeps every check of its own.
const REVISIONS: ReadonlySet<string> = new Set(['2025-11-25', '2025-06-18', '2025-03-26']);
const SENTINEL = 'cloudprice-prebuilt-tools-list';
const SENTINEL_ID = `"id":${JSON.stringify(SENTINEL)}`;

interface Prebuilt {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly before: string;
  readonly after: string;
}

export interface PrebuiltAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

type Handler = (request: Request, options: { parsedBody: unknown }) => Promise<Response>;

/** A tools/list request with nothing that could change its answer, or undefined. */
function plainToolsList(message: unknown): { id: string | number } | undefined {
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return undefined;
  const { jsonrpc, id, method, params, ...rest } = message as Record<string, unknown>;
  if (jsonrpc !== '2.0' || method !== 'tools/list' || Object.keys(rest).length > 0)
    return undefined;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  const plainParams =
    params === undefined ||
    (typeof params === 'object' && params !== null && Object.keys(params).length === 0);
  return plainParams ? { id } : undefined;
}

export class PrebuiltToolsList {
  readonly #handle: Handler;
  /** `headers`: the response headers to keep (the route's own filter). */
  readonly #keep: (name: string) => boolean;
  readonly #built = new Map<string, Promise<Prebuilt | undefined>>();

  constructor(handle: Handler, keep: (name: string) => boolean) {
    this.#handle = handle;
    this.#keep = keep;
  }

  /** The answer to `message` from the buffer, or undefined for the SDK to answer. */
  async answer(
    message: unknown,
    version: string | undefined,
    accept: string | undefined,
  ): Promise<PrebuiltAnswer | undefined> {
    const request = plainToolsList(message);
    if (request === undefined || version === undefined || !REVISIONS.has(version)) return undefined;
    if (!accept?.includes('application/json') || !accept.includes('text/event-stream')) {
      return undefined;
    }
    let built = this.#built.get(version);
    if (built === undefined) {
      built = this.#build(version);
      this.#built.set(version, built);
    }
    const prebuilt = await built;
    if (prebuilt === undefined) return undefined;
    return {
      status: prebuilt.status,
      headers: prebuilt.headers,
      body: `${prebuilt.before}"id":${JSON.stringify(request.id)}${prebuilt.after}`,
    };
  }

  /** The SDK's answer to a tools/list with a sentinel id, split around that id. */
  async #build(version: string): Promise<Prebuilt | undefined> {
    const message = { jsonrpc: '2.0', id: SENTINEL, method: 'tools/list' };
    const response = await this.#handle(
      new Request('http://localhost/mcp', {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': version,
        },
        body: JSON.stringify(message),
      }),
      { parsedBody: message },
    );
    const text = await response.text();
    const parts = text.split(SENTINEL_ID);
    if (response.status !== 200 || parts.length !== 2) return undefined;
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      if (this.#keep(name)) headers[name] = value;
    });
    return { status: response.status, headers, before: parts[0]!, after: parts[1]! };
  }
}
