// The price history as a small step chart of our own (SVG, no chart library): each price period
// is a flat segment from valid_from to valid_to (or now). The periods are this server's record
// (they open when a sync applies); the price itself was observed upstream on the record's
// `pricing.observed_at` (D37), which for a bundled snapshot is long before the first sync. So the
// chart starts at that observation (D57): a dashed lead-in at the observed price up to the first
// recorded period, labelled, so the observation date beside the chart and the chart agree. The
// figure carries a text summary for screen readers, and the periods are also listed in a table.
// The record's other purchase options (D61), when given, are drawn as thinner lines on the same
// axes, each named in the legend and the summary.
import { dateTime, money } from '../format';
import type { PricePeriod } from '../model';
import './price-chart.css';
import { day } from '../provenance';

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 72, right: 16, top: 28, bottom: 36 };

interface Segment {
  readonly from: number;
  readonly to: number;
  readonly price: number;
  readonly available: boolean;
}

/** Another purchase option's periods, drawn beside the main line. */
export interface OtherLine {
  readonly label: string;
  readonly periods: readonly PricePeriod[];
  /**
   * When the option's current price was observed upstream: its line starts there when that is
   * before its first period (this server records an option from its first sync).
   */
  readonly observedAt?: string;
}

function segments(periods: readonly PricePeriod[], now: number): Segment[] {
  return [...periods]
    .map((p) => ({
      from: Date.parse(p.valid_from),
      to: p.valid_to === null ? now : Date.parse(p.valid_to),
      price: p.monthly_price,
      available: p.available,
    }))
    .filter((p) => Number.isFinite(p.from) && Number.isFinite(p.to))
    .sort((a, b) => a.from - b.from);
}

export function PriceChart({
  periods,
  currency,
  now,
  observedAt,
  label,
  others = [],
}: {
  periods: readonly PricePeriod[];
  currency: string;
  now: number;
  /** The record's `pricing.observed_at`: when its current price was observed upstream. */
  observedAt?: string | undefined;
  /** The main line's option, named in the legend when other options are drawn. */
  label?: string;
  others?: readonly OtherLine[];
}) {
  const points = segments(periods, now);
  if (points.length === 0) return <p class="status">No price history yet.</p>;
  const lines = others
    .map((other) => {
      const line = segments(other.periods, now);
      const seen = other.observedAt === undefined ? NaN : Date.parse(other.observedAt);
      if (line.length === 1 && seen < line[0]!.from) line[0] = { ...line[0]!, from: seen };
      return { label: other.label, points: line };
    })
    .filter((other) => other.points.length > 0);
  const recordedFrom = points[0]!.from;
  const current = points[points.length - 1]!;
  const observed = observedAt === undefined ? NaN : Date.parse(observedAt);
  // The observation predates this server's record: the chart starts there.
  const earlier = Number.isFinite(observed) && observed < recordedFrom;
  // With one period the observed price is the recorded one, so the lead-in is that price; with
  // several, the observation dates only the current price: a marker, no line.
  const leadIn = earlier && points.length === 1;
  const start = Math.min(
    earlier ? observed : recordedFrom,
    ...lines.map((other) => other.points[0]!.from),
  );
  const end = Math.max(current.to, start + 1, ...lines.map((o) => o.points.at(-1)!.to));
  const prices = [...points, ...lines.flatMap((other) => other.points)].map((p) => p.price);
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  // Flat history: centre the line instead of drawing it on an axis.
  // With other options drawn, a margin keeps the lowest line off the axis.
  const margin = lines.length > 0 ? (high - low) * 0.08 : 0;
  const span = high - low + 2 * margin || Math.max(high * 0.1, 1);
  const bottom = high === low ? low - span / 2 : low - margin;
  const x = (t: number) =>
    PAD.left + ((t - start) / (end - start)) * (WIDTH - PAD.left - PAD.right);
  const y = (v: number) =>
    HEIGHT - PAD.bottom - ((v - bottom) / span) * (HEIGHT - PAD.top - PAD.bottom);
  const pathOf = (line: readonly Segment[]) =>
    line
      .map(
        (p, i) =>
          `${i === 0 ? 'M' : 'L'}${x(p.from).toFixed(1)},${y(p.price).toFixed(1)} H${x(p.to).toFixed(1)}`,
      )
      .join(' ');
  const path = pathOf(points);
  const startDay = new Date(start).toISOString().slice(0, 10);
  const recordedDay = new Date(recordedFrom).toISOString().slice(0, 10);
  const observedDay = observedAt === undefined ? undefined : day(observedAt);
  const range = `lowest ${money(low, currency)}, highest ${money(high, currency)}, now ${money(current.price, currency)}`;
  const periodsText = `${points.length} price period${points.length === 1 ? '' : 's'}`;
  const othersText =
    lines.length === 0
      ? ''
      : ` Also drawn: ${lines
          .map((o) => `${o.label}, now ${money(o.points.at(-1)!.price, currency)}`)
          .join('; ')}.`;
  const mainSummary = leadIn
    ? `Monthly price ${money(current.price, currency)} as observed upstream on ${observedDay} (dashed: not checked again until this server recorded it on ${recordedDay}), then recorded by this server from ${recordedDay} to now: ${periodsText}, ${range}.`
    : earlier
      ? `The current monthly price was observed upstream on ${observedDay}; this server recorded ${periodsText} from ${dateTime(new Date(recordedFrom).toISOString())} to now: ${range}.`
      : `Monthly price from ${dateTime(new Date(recordedFrom).toISOString())} to now: ${periodsText}, ${range}${observedDay === undefined ? '' : `; the current price was observed upstream on ${observedDay}`}.`;
  const summary = `${label === undefined || lines.length === 0 ? '' : `${label}: `}${mainSummary}${othersText}`;
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        role="img"
        aria-labelledby="chart-title chart-desc"
        preserveAspectRatio="none"
      >
        <title id="chart-title">Price history</title>
        <desc id="chart-desc">{summary}</desc>
        <line
          class="axis"
          x1={PAD.left}
          x2={WIDTH - PAD.right}
          y1={HEIGHT - PAD.bottom}
          y2={HEIGHT - PAD.bottom}
        />
        <line class="axis" x1={PAD.left} x2={PAD.left} y1={PAD.top} y2={HEIGHT - PAD.bottom} />
        <text class="tick" x={PAD.left - 6} y={y(high) + 4} text-anchor="end">
          {money(high, currency)}
        </text>
        {high !== low && (
          <text class="tick" x={PAD.left - 6} y={y(low) + 4} text-anchor="end">
            {money(low, currency)}
          </text>
        )}
        <text class="tick" x={PAD.left} y={HEIGHT - 12} text-anchor="start">
          {startDay}
        </text>
        <text class="tick" x={WIDTH - PAD.right} y={HEIGHT - 12} text-anchor="end">
          {new Date(end).toISOString().slice(0, 10)}
        </text>
        {leadIn && (
          <path
            class="line line-observed"
            d={`M${x(observed).toFixed(1)},${y(current.price).toFixed(1)} H${x(recordedFrom).toFixed(1)}`}
          />
        )}
        {lines.map((other, i) => (
          <path
            key={other.label}
            class={`line line-other line-other-${i}`}
            d={pathOf(other.points)}
          />
        ))}
        <path class="line" d={path} />
        {points.map((p) => (
          <circle
            key={p.from}
            class={p.available ? 'dot' : 'dot off'}
            cx={x(p.from)}
            cy={y(p.price)}
            r="4"
          />
        ))}
        {earlier && (
          <>
            <rect
              class="observed-mark"
              x={x(observed) - 4}
              y={y(current.price) - 4}
              width="8"
              height="8"
            />
            <text class="tick" x={x(observed) + 2} y={y(current.price) - 10} text-anchor="start">
              observed {observedDay}
            </text>
          </>
        )}
      </svg>
      <figcaption class="small">
        {lines.length > 0 && (
          <ul class="chart-legend" aria-label="Purchase options drawn">
            <li>
              <svg class="swatch" viewBox="0 0 24 8" aria-hidden="true">
                <path class="line" d="M0,4 H24" />
              </svg>
              {label ?? 'this option'}
            </li>
            {lines.map((other, i) => (
              <li key={other.label}>
                <svg class="swatch" viewBox="0 0 24 8" aria-hidden="true">
                  <path class={`line line-other line-other-${i}`} d="M0,4 H24" />
                </svg>
                {other.label}
              </li>
            ))}
          </ul>
        )}
        {earlier && (
          <ul class="chart-legend">
            <li>
              <svg class="swatch" viewBox="0 0 24 8" aria-hidden="true">
                <rect class="observed-mark" x="8" y="0" width="8" height="8" />
              </svg>
              price observed upstream on {observedDay}
            </li>
            {leadIn && (
              <li>
                <svg class="swatch" viewBox="0 0 24 8" aria-hidden="true">
                  <path class="line line-observed" d="M0,4 H24" />
                </svg>
                not checked again until this server first recorded it on {recordedDay}
              </li>
            )}
            <li>
              <svg class="swatch" viewBox="0 0 24 8" aria-hidden="true">
                <path class="line" d="M0,4 H24" />
              </svg>
              recorded by this server, from {recordedDay}
            </li>
          </ul>
        )}
        {summary}
      </figcaption>
    </figure>
  );
}
