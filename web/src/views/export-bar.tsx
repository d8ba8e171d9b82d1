// Export of exactly what is shown: copy the visible rows and columns as CSV or Markdown, or
// download the API's own CSV of the same query (D47). When the clipboard is not available (a
// plain-http page on another host), the text is shown to copy by hand.
import { useState } from 'preact/hooks';
import { describeError } from '../api';
import { count } from '../format';

interface Props {
  readonly rows: readonly unknown[];
  readonly total: number;
  readonly csv: () => string;
  readonly markdown: () => string;
  /** The CSV of every matching row (up to `limit`); undefined hides the button. */
  readonly download?: () => Promise<string>;
  readonly limit?: number;
}

export function ExportBar({ rows, total, csv, markdown, download, limit = 10_000 }: Props) {
  const rowsInFile = Math.min(total, limit);
  const [message, setMessage] = useState('');
  const [manual, setManual] = useState<string | undefined>(undefined);
  const copy = async (what: string, text: string) => {
    setManual(undefined);
    try {
      await navigator.clipboard.writeText(text);
      setMessage(`Copied ${rows.length} rows as ${what}.`);
    } catch {
      setManual(text);
      setMessage(`The browser did not allow copying: the ${what} is below, select it and copy.`);
    }
  };
  return (
    <div class="export" role="group" aria-label="Export">
      <button type="button" disabled={rows.length === 0} onClick={() => void copy('CSV', csv())}>
        Copy CSV
      </button>
      <button
        type="button"
        disabled={rows.length === 0}
        onClick={() => void copy('Markdown', markdown())}
      >
        Copy Markdown
      </button>
      {download !== undefined && (
        <button
          type="button"
          disabled={total === 0}
          onClick={() => {
            setMessage('Preparing the CSV…');
            download()
              .then((text) => {
                const url = URL.createObjectURL(new Blob([text], { type: 'text/csv' }));
                const a = document.createElement('a');
                a.href = url;
                a.download = `instances-${new Date().toISOString().slice(0, 10)}.csv`;
                document.body.append(a);
                a.click();
                a.remove();
                setTimeout(() => URL.revokeObjectURL(url), 10_000);
                setMessage(
                  `Downloaded ${a.download} (${count.format(rowsInFile)} rows${rowsInFile < total ? ` of ${count.format(total)}: narrow the filters for the rest` : ''}).`,
                );
              })
              .catch((error: unknown) => setMessage(describeError(error)));
          }}
        >
          {rowsInFile < total
            ? `Download CSV (first ${count.format(rowsInFile)} of ${count.format(total)})`
            : `Download CSV (all ${count.format(total)} matching)`}
        </button>
      )}
      <p class="status" aria-live="polite">
        {message}
      </p>
      {manual !== undefined && (
        <textarea aria-label="Exported text" readOnly rows={8} value={manual} />
      )}
    </div>
  );
}
