// Provenance of the bundled spot advice (data/snapshots/provider_c/spot-advisor-data.json), the
// recording PROVIDER_C_SPOT_ADVICE_URL reads by default. Shared by the snapshot generator, which
// writes it into the snapshot's metadata, and by the sync, which dates the advice with it: the
// feed itself carries no timestamp (D37: every figure shows its source and observation).
export const BUNDLED_SPOT_ADVICE = {
  /** The file name under data/snapshots/provider_c/ (the feed's own name). */
  file: 'spot-advisor-data.json',
  /**
   * When the recording was committed: the latest possible fetch time (README-aws.md). The
   * commit gives minutes only.
   */
  observedAt: '2025-06-28T08:37:00Z',
  source:
    'AWS Spot Instance Advisor (spot-advisor-data.json), as recorded in github.com/alexei-led/spotinfo on 2025-06-28',
  licence: 'Apache-2.0',
  attribution:
    'AWS Spot Instance Advisor data, recorded in github.com/alexei-led/spotinfo (Apache-2.0)',
} as const;
