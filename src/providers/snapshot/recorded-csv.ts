// Reads the recorded upstream figures in data/sources/ (CSV, RFC 4180 quoting, one header row).
// The snapshot generators build every bundled price from these files, so any doubt about a value
// stops the generator with a message naming the file, the row and the column: a missing column,
// an empty required cell or text that is not what the column holds is never guessed at.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** data/sources/ of this repository: the recorded figures, kept as the project's own data. */
export const SOURCES_DIR = fileURLToPath(new URL('../../../data/sources/', import.meta.url));

/** Bad or partial recorded data. The message names the file and the row (1 = the header). */
export class RecordedDataError extends Error {
  override readonly name = 'RecordedDataError';
}

/** One data row: its line number in the file (the header is line 1) and its cells by column. */
export interface CsvRow {
  readonly file: string;
  readonly line: number;
  readonly cells: ReadonlyMap<string, string>;
}

/** Splits CSV text into records of cells; a quoted cell may hold commas, quotes ("") and newlines. */
function splitCsv(text: string, file: string): { cells: string[]; line: number }[] {
  const records: { cells: string[]; line: number }[] = [];
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let line = 1;
  let recordLine = 1;
  let i = 0;
  const endRecord = () => {
    cells.push(cell);
    if (!(cells.length === 1 && cells[0] === '')) records.push({ cells, line: recordLine });
    cells = [];
    cell = '';
  };
  while (i < text.length) {
    const ch = text[i] ?? '';
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 2;
        continue;
      }
      if (ch === '"') quoted = false;
      else {
        if (ch === '\n') line += 1;
        cell += ch;
      }
      i += 1;
      continue;
    }
    if (ch === '"' && cell === '') quoted = true;
    else if (ch === '"') {
      throw new RecordedDataError(`${file} line ${line}: a quote inside an unquoted cell`);
    } else if (ch === ',') {
      cells.push(cell);
      cell = '';
    } else if (ch === '\n' || (ch === '\r' && text[i + 1] === '\n')) {
      if (ch === '\r') i += 1;
      endRecord();
      line += 1;
      recordLine = line;
    } else cell += ch;
    i += 1;
  }
  if (quoted) throw new RecordedDataError(`${file} line ${recordLine}: unterminated quoted cell`);
  if (cell !== '' || cells.length > 0) endRecord();
  return records;
}

/**
 * Reads `data/sources/<name>` (or an absolute path): every row must have exactly the header's
 * number of cells, and the header must hold every one of `columns`.
 */
export async function readRecordedCsv(name: string, columns: readonly string[]): Promise<CsvRow[]> {
  const file = path.isAbsolute(name) ? name : path.join(SOURCES_DIR, name);
  const label = path.basename(file);
  const text = await readFile(file, 'utf8');
  return parseRecordedCsv(text, label, columns);
}

/** As readRecordedCsv, on text already read; `label` names the file in messages. */
export function parseRecordedCsv(
  text: string,
  label: string,
  columns: readonly string[],
): CsvRow[] {
  const [header, ...records] = splitCsv(text, label);
  if (header === undefined) throw new RecordedDataError(`${label}: the file is empty`);
  const missing = columns.filter((c) => !header.cells.includes(c));
  if (missing.length > 0) {
    throw new RecordedDataError(`${label} line 1: missing column(s) ${missing.join(', ')}`);
  }
  if (records.length === 0) throw new RecordedDataError(`${label}: no data rows`);
  return records.map(({ cells, line }) => {
    if (cells.length !== header.cells.length) {
      throw new RecordedDataError(
        `${label} line ${line}: ${cells.length} cells, the header has ${header.cells.length}`,
      );
    }
    return {
      file: label,
      line,
      cells: new Map(header.cells.map((name, index) => [name, cells[index] ?? ''])),
    };
  });
}

/** Where a row's value came from, for messages: `file line N, column "x"`. */
export function at(row: CsvRow, column: string): string {
  return `${row.file} line ${row.line}, column "${column}"`;
}

/** The cell's text; throws when the column is empty and `required`. */
export function cell(row: CsvRow, column: string, required = true): string {
  const value = row.cells.get(column);
  if (value === undefined) throw new RecordedDataError(`${at(row, column)}: no such column`);
  if (required && value.trim() === '') throw new RecordedDataError(`${at(row, column)}: empty`);
  return value;
}

const WHOLE = /^(0|[1-9]\d{0,9})$/;
const DECIMAL = /^(0|[1-9]\d{0,11})(\.\d{1,10})?$/;

/** A whole number >= `min`. */
export function wholeCell(row: CsvRow, column: string, min = 0): number {
  const text = cell(row, column);
  if (!WHOLE.test(text) || Number(text) < min) {
    throw new RecordedDataError(`${at(row, column)}: "${text}" is not a whole number >= ${min}`);
  }
  return Number(text);
}

/** A plain non-negative decimal, returned as its text (never through a float). */
export function decimalCell(row: CsvRow, column: string, positive = false): string {
  const text = cell(row, column);
  if (!DECIMAL.test(text) || (positive && /^0(\.0+)?$/.test(text))) {
    throw new RecordedDataError(
      `${at(row, column)}: "${text}" is not a ${positive ? 'positive ' : ''}decimal number`,
    );
  }
  return text;
}

/** One of `allowed`. */
export function choiceCell<T extends string>(
  row: CsvRow,
  column: string,
  allowed: readonly T[],
): T {
  const text = cell(row, column, false);
  const found = allowed.find((a) => a === text);
  if (found === undefined) {
    throw new RecordedDataError(
      `${at(row, column)}: "${text}" is not one of ${allowed.map((a) => `"${a}"`).join(', ')}`,
    );
  }
  return found;
}

/**
 * A decimal's text with its trailing fractional zeros and a bare point removed ("12.0" -> "12",
 * "0.0500" -> "0.05"), for writing a recorded figure without changing its value.
 */
export function canonicalDecimal(text: string): string {
  if (!text.includes('.')) return text;
  return text.replace(/0+$/, '').replace(/\.$/, '');
}
