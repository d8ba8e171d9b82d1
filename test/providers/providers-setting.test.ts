// PROVIDERS (D65, docs/configuration.md): which registered providers the service serves. Unset,
// the registry's default ones (every provider not marked opt-in); `all`, every registered one; a
// comma list names them, served in registry order; an unknown name stops start-up naming it.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { PROVIDERS, defaultProviders } from '../../src/providers/registry.js';

const CWD = '/srv/cloudprice';
const names = (env: Record<string, string>) => loadConfig(env, CWD).registry.map((p) => p.name);

describe('PROVIDERS setting', () => {
  const optIn = PROVIDERS.filter((p) => p.optIn === true).map((p) => p.name);
  const byDefault = defaultProviders().map((p) => p.name);

  it('serves the specification three by default, and every registered one with `all`', () => {
    expect(byDefault).toEqual(['provider_a', 'provider_b', 'provider_c']);
    expect(names({})).toEqual(byDefault);
    expect(names({ PROVIDERS: 'all' })).toEqual(PROVIDERS.map((p) => p.name));
    expect(names({ PROVIDERS: ' ALL ' })).toEqual(PROVIDERS.map((p) => p.name));
    expect(Object.keys(loadConfig({}, CWD).providers)).toEqual(byDefault);
  });

  it('takes a comma list, in registry order whatever the list order', () => {
    expect(names({ PROVIDERS: 'provider_c, provider_a' })).toEqual(['provider_a', 'provider_c']);
    for (const name of optIn) {
      expect(names({ PROVIDERS: `${name},provider_b` })).toEqual(['provider_b', name]);
    }
  });

  it.each([['provider_x'], ['provider_a,aws'], [','], ['Provider_A']])(
    'stops start-up for PROVIDERS=%s, naming the variable and the known names',
    (value) => {
      expect(() => loadConfig({ PROVIDERS: value }, CWD)).toThrow(ConfigError);
      try {
        loadConfig({ PROVIDERS: value }, CWD);
      } catch (error) {
        expect((error as ConfigError).variable).toBe('PROVIDERS');
        expect((error as Error).message).toContain(PROVIDERS.map((p) => p.name).join(', '));
      }
    },
  );
});
