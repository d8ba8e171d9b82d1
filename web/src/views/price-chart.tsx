// The price history as a small step chart of our own (SVG, no chart library): each price period
// is a flat segment from valid_from to valid_to (or now). The figure carries a text summary for
// screen readers, and the periods are also listed in a table next to it.
import { dateTime, money } from '../format';
import type { PricePeriod } from '../model';

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 72, right: 16, top: 16, bottom: 36 };

export function PriceChart({
  periods,
  currency,
  now,
}: {
  periods: readonly PricePeriod[];
  currency: string;
  now: number;
}) {
  const points = [...periods]
    .map((p) => ({
      from: Date.parse(p.valid_from),
      to: p.valid_to === null ? now : Date.parse(p.valid_to),
      price: p.monthly_price,
      available: p.available,
    }))
    .filter((p) => Number.isFinite(p.from) && Number.isFinite(p.to))
    .sort((a, b) => a.from - b.from);
  if (points.length === 0) return <p class="status">No price history yet.</p>;
  const start = points[0]!.from;
  const end = Math.max(points[points.length - 1]!.to, start + 1);
  const prices = points.map((p) => p.price);
  const low = Math.min(...prices);
  const high = Math.max(...prices);
  // Flat history: centre the line instead of drawing it on an axis.
  const span = high - low || Math.max(high * 0.1, 1);
  const bottom = high === low ? low - span / 2 : low;
  const x = (t: number) =>
    PAD.left + ((t - start) / (end - start)) * (WIDTH - PAD.left - PAD.right);
  const y = (v: number) =>
    HEIGHT - PAD.bottom - ((v - bottom) / span) * (HEIGHT - PAD.top - PAD.bottom);
  const path = points
    .map(
      (p, i) =>
        `${i === 0 ? 'M' : 'L'}${x(p.from).toFixed(1)},${y(p.price).toFixed(1)} H${x(p.to).toFixed(1)}`,
    )
    .join(' ');
  const current = points[points.length - 1]!;
  const summary = `Monthly price from ${dateTime(new Date(start).toISOString())} to now: ${points.length} price period${points.length === 1 ? '' : 's'}, lowest ${money(low, currency)}, highest ${money(high, currency)}, now ${money(current.price, currency)}.`;
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
          {new Date(start).toISOString().slice(0, 10)}
        </text>
        <text class="tick" x={WIDTH - PAD.right} y={HEIGHT - 12} text-anchor="end">
          {new Date(end).toISOString().slice(0, 10)}
        </text>
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
      </svg>
      <figcaption class="small">{summary}</figcaption>
    </figure>
  );
}
