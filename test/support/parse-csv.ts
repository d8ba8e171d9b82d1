// A strict RFC 4180 reader for tests: every line must end with CRLF, a field is either plain
// (no quote, comma, CR or LF) or quoted with inner quotes doubled. Throws on anything else, so
// a test that reads our CSV back also checks it is well formed.
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let i = 0;
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i += 1;
      for (;;) {
        if (i >= text.length) throw new Error('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i += 1;
          break;
        }
        field += text[i];
        i += 1;
      }
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r') {
        if (text[i] === '"' || text[i] === '\n') throw new Error(`bare ${text[i]} at ${i}`);
        field += text[i];
        i += 1;
      }
    }
    row.push(field);
    if (text[i] === ',') {
      i += 1;
      continue;
    }
    if (text[i] === '\r' && text[i + 1] === '\n') {
      rows.push(row);
      row = [];
      i += 2;
      continue;
    }
    throw new Error(`expected , or CRLF at ${i}`);
  }
  if (row.length > 0) throw new Error('last line without CRLF');
  return rows;
}
