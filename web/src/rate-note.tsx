// D43: a converted price says at which rate. Beside every table or list of converted prices: the
// rate, its source and its date (the answer's metadata.exchange_rate), and, when the prices were
// observed before that date, that they are converted at a newer rate than their own day's.
import { day } from './provenance';

export interface ExchangeRate {
  readonly currency: string;
  readonly rate: number;
  readonly as_of: string;
  readonly source: string;
}

const RATE = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 6 });

export function RateNote({
  rate,
  observed,
}: {
  /** The answer's metadata.exchange_rate; absent for USD (nothing converted). */
  rate: ExchangeRate | undefined;
  /** The observation times (ISO) of the prices shown. */
  observed: readonly string[];
}) {
  if (rate === undefined) return null;
  const days = [...new Set(observed.map(day))].sort();
  const older = days.filter((d) => d < rate.as_of);
  return (
    <p class="rate-note">
      Prices converted from USD at{' '}
      <strong>
        1 USD = {RATE.format(rate.rate)} {rate.currency}
      </strong>
      , the rate of <time dateTime={rate.as_of}>{rate.as_of}</time> ({rate.source}).
      {older.length > 0 && (
        <>
          {' '}
          The prices were observed{' '}
          {older.length === 1 ? `on ${older[0]}` : `from ${older[0]} to ${older.at(-1)}`}, before
          that rate: they are converted at today&apos;s rate, not at the rate of their day.
        </>
      )}
    </p>
  );
}
