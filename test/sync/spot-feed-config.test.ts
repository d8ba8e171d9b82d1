// PROVIDER_C_SPOT_URL and PROVIDER_C_SPOT_ADVICE_URL (D61, docs/configuration.md): spot prices
// are off unless a URL is given; spot advice reads the bundled recording unless told otherwise.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const CWD = '/srv/cloudprice';

describe('provider_c spot feed settings', () => {
  it('defaults: no spot prices, the bundled advice recording', () => {
    const config = loadConfig({}, CWD);
    const bundled = `file://${path.join(CWD, 'data/snapshots/provider_c/spot-advisor-data.json')}`;
    expect(config.providerCSpot).toEqual({
      pricesUrl: undefined,
      adviceUrl: bundled,
      bundledAdviceUrl: bundled,
    });
  });

  it('takes live URLs, and `off` for the advice', () => {
    const config = loadConfig(
      {
        PROVIDER_C_SPOT_URL: 'https://website.spot.ec2.aws.a2z.com/spot.json',
        PROVIDER_C_SPOT_ADVICE_URL: 'off',
      },
      CWD,
    );
    expect(config.providerCSpot.pricesUrl).toBe('https://website.spot.ec2.aws.a2z.com/spot.json');
    expect(config.providerCSpot.adviceUrl).toBeUndefined();
    expect(loadConfig({ PROVIDER_C_SPOT_URL: 'off' }, CWD).providerCSpot.pricesUrl).toBeUndefined();
  });

  it.each([
    ['PROVIDER_C_SPOT_URL', 'ftp://example.com/spot.json'],
    ['PROVIDER_C_SPOT_URL', 'not a url'],
    ['PROVIDER_C_SPOT_URL', 'https://example.com/dir/'],
    ['PROVIDER_C_SPOT_ADVICE_URL', 'https://example.com/'],
  ])('refuses %s=%s at start, naming it', (name, value) => {
    expect(() => loadConfig({ [name]: value }, CWD)).toThrow(ConfigError);
    try {
      loadConfig({ [name]: value }, CWD);
    } catch (err) {
      expect((err as ConfigError).variable).toBe(name);
    }
  });
});
