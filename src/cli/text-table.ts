// The aligned plain-text table every `cloudprice` command prints for people: two spaces between
// columns, numbers right-aligned, no trailing spaces (the last column is never padded).

export interface TableColumn {
  readonly title: string;
  /** Right-aligned (numbers); left-aligned otherwise. */
  readonly numeric?: boolean;
}

export function formatTable(
  columns: readonly TableColumn[],
  rows: readonly (readonly string[])[],
): string {
  const widths = columns.map((column, index) =>
    Math.max(column.title.length, ...rows.map((row) => (row[index] ?? '').length)),
  );
  const line = (cells: readonly string[]) =>
    columns
      .map((column, index) => {
        const cell = cells[index] ?? '';
        if (index === columns.length - 1)
          return column.numeric ? cell.padStart(widths[index]!) : cell;
        return column.numeric ? cell.padStart(widths[index]!) : cell.padEnd(widths[index]!);
      })
      .join('  ')
      .trimEnd();
  return [line(columns.map((column) => column.title)), ...rows.map(line)].join('\n');
}
