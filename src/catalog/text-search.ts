// `q` (extension D54): a case-insensitive substring search on instance_id and instance_name.
// "Case-insensitive" is ASCII case folding (A-Z to a-z), exactly what SQLite's lower() and
// PostgreSQL's lower() under the "C" collation do, so the index and the SQL path (as_of) match
// the same records whatever else a name holds.

/** Longest `q`, in UTF-16 units: a name search, not a document. */
export const SEARCH_MAX_CHARS = 64;

export function foldAsciiCase(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/** Whether the record's id or name contains `folded` (already folded with foldAsciiCase). */
export function matchesText(instanceId: string, instanceName: string, folded: string): boolean {
  return foldAsciiCase(instanceId).includes(folded) || foldAsciiCase(instanceName).includes(folded);
}

/** `folded` as a LIKE pattern (escape character `\`): contains, with %, _ and \ taken literally. */
export function containsPattern(folded: string): string {
  return `%${folded.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
