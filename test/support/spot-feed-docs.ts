// Documents in the layouts of AWS's spot price feed and Spot Instance Advisor
// (docs/purchase-options.md), for tests that serve them from a local HTTP server.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** AWS region code -> instance type -> Linux USD per hour, as the feed writes it ("N/A*" too). */
export type SpotPrices = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** The spot price feed (`spot.json`) with one Linux price per region and type. */
export function spotPriceFeed(prices: SpotPrices): unknown {
  return {
    vers: 0.01,
    config: {
      rate: 'perhr',
      valueColumns: ['linux', 'mswin'],
      currencies: ['USD'],
      regions: Object.entries(prices).map(([region, sizes]) => ({
        region,
        instanceTypes: [
          {
            type: 'generalCurrentGen',
            sizes: Object.entries(sizes).map(([size, usd]) => ({
              size,
              valueColumns: [
                { name: 'linux', prices: { USD: usd } },
                { name: 'mswin', prices: { USD: '9.99' } },
              ],
            })),
          },
        ],
      })),
    },
  };
}

const FIXTURE_ADVICE = fileURLToPath(
  new URL('../fixtures/snapshots/provider_c/spot-advisor-data.json', import.meta.url),
);

/** The test copy of the bundled Spot Instance Advisor recording, in the feed's own layout. */
export function recordedSpotAdvice(): {
  ranges: unknown[];
  spot_advisor: Record<string, { Linux: Record<string, { s: number; r: number }> }>;
} {
  return JSON.parse(readFileSync(FIXTURE_ADVICE, 'utf8')) as ReturnType<typeof recordedSpotAdvice>;
}

/** `doc` without `region`'s entry in spot_advisor (a feed missing one of our regions). */
export function adviceWithout(region: string): unknown {
  const doc = recordedSpotAdvice();
  delete doc.spot_advisor[region];
  return doc;
}
