import { describe, expect, it } from 'vitest';
import type { InstanceOffer, ProviderCatalog } from '../catalog/offers.js';
import { checkSkippedShare } from './skipped-guard.js';
import { UpstreamError } from './upstream/upstream-error.js';

const offers = (n: number) => Array.from({ length: n }, () => ({}) as InstanceOffer);
const catalog = (fields: Partial<ProviderCatalog>): ProviderCatalog => ({
  provider: 'provider_c',
  regionCodes: [],
  offers: [],
  skippedRecords: 0,
  ...fields,
});

function failure(c: ProviderCatalog): UpstreamError | undefined {
  try {
    checkSkippedShare(c);
    return undefined;
  } catch (error) {
    if (error instanceof UpstreamError) return error;
    throw error;
  }
}

describe('checkSkippedShare (issue 35 item 2)', () => {
  it('allows up to 10% of the entries seen, and fails above it', () => {
    expect(failure(catalog({ skippedRecords: 10, entriesSeen: 100 }))).toBeUndefined();
    const over = failure(catalog({ skippedRecords: 11, entriesSeen: 100 }));
    expect(over?.code).toBe('UPSTREAM_INVALID_DATA');
    expect(over?.publicMessage).toContain('11 of 100 upstream entries failed validation');
  });

  it('counts skipped plus offers when the adapter does not say what it saw', () => {
    expect(failure(catalog({ skippedRecords: 1, offers: offers(9) }))).toBeUndefined();
    expect(failure(catalog({ skippedRecords: 2, offers: offers(9) }))).toBeDefined();
  });

  it('fails on one broken region that the provider total would dilute, naming it', () => {
    const c = catalog({
      skippedRecords: 60,
      entriesSeen: 1_000,
      regionEntries: [
        { regionCode: 'ap-northeast-1', skipped: 60, seen: 66 },
        { regionCode: 'ap-northeast-2', skipped: 0, seen: 934 },
      ],
    });
    expect(failure(c)?.publicMessage).toContain(
      '60 of 66 upstream entries in region ap-northeast-1',
    );
  });
});
