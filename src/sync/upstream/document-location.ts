// Where a setting that names one document points, as an upstream client reads it: the client's
// base (the document's directory) and the path below it.

export interface DocumentLocation {
  /** `https://host/dir/`, `file:///dir/`: the base URL an UpstreamClient is created with. */
  readonly baseUrl: string;
  /** `/file.json` (with the URL's query, if any): what the client is asked for. */
  readonly path: string;
}

/**
 * Splits a document URL (`https://host/dir/file.json?x=1`, `file:///dir/file.json`). Throws
 * TypeError, naming `setting`, for a URL that names a directory rather than a file.
 */
export function documentLocation(documentUrl: string, setting: string): DocumentLocation {
  const url = new URL(documentUrl);
  const slash = url.pathname.lastIndexOf('/');
  const file = url.pathname.slice(slash + 1);
  if (file === '') throw new TypeError(`${setting} must name a file, got ${documentUrl}`);
  const base = new URL(url.href);
  base.pathname = url.pathname.slice(0, slash + 1);
  base.search = '';
  base.hash = '';
  return { baseUrl: base.href, path: `/${file}${url.search}` };
}
