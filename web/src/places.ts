// The providers, regions and cities the page names: the API's own (GET /regions, D56, with each
// provider's display name), asked once per key when the page starts, never a copy of the API's
// tables. The request runs beside the view's first one, and a view is shown once both /health
// and it have answered (main.tsx), so no label changes width after it is painted; when it fails,
// names fall back to the identifiers the API uses, which every view can still show and send. The app re-renders when the places arrive, so every label
// below reads them (usePlaces in main.tsx).
import { useLayoutEffect, useState } from 'preact/hooks';
import { apiJson } from './api';
import { useRecovery } from './use-api';
import type { RegionsData } from './model';

export type ProviderInfo = RegionsData['providers'][number];
export type RegionInfo = RegionsData['regions'][number];
export type CityInfo = RegionsData['cities'][number];

let current: RegionsData | undefined;
let failure: unknown;

/** The answer as a view shows its own loads (use-api.ts): data, still loading, or the error. */
export function placesAnswer(): { data?: RegionsData; loading: boolean; error: unknown } {
  return { data: current, loading: current === undefined && failure === undefined, error: failure };
}

/** True once GET /regions has answered. */
export function placesLoaded(): boolean {
  return current !== undefined;
}

/** The providers, in the API's order. */
export function providers(): readonly ProviderInfo[] {
  return current?.providers ?? [];
}

/** Every region of the API's table, in its order. */
export function regions(): readonly RegionInfo[] {
  return current?.regions ?? [];
}

/** The cities (D56), in the API's order. */
export function cities(): readonly CityInfo[] {
  return current?.cities ?? [];
}

/** A city slug the API names (any non-empty text until the places are known). */
export function isCity(slug: string): boolean {
  return current === undefined ? slug !== '' : current.cities.some((c) => c.city === slug);
}

/** A provider's display name (D55), or its identifier before the places are known. */
export function providerLabel(name: string): string {
  return current?.providers.find((p) => p.name === name)?.display_name ?? name;
}

/** What a provider calls the block storage it sells apart (`EBS`), if it does. */
export function blockStorageOf(name: string): string | undefined {
  return current?.providers.find((p) => p.name === name)?.block_storage ?? undefined;
}

export function cityName(slug: string): string {
  return current?.cities.find((c) => c.city === slug)?.name ?? slug;
}

/** `Tokyo (nrt)`: a region code with the city it is in. */
export function regionLabel(code: string): string {
  const region = current?.regions.find((r) => r.region_code === code);
  if (region === undefined) return code;
  const own = region.provider_region_id;
  return own === code
    ? `${cityName(region.city)} (${code})`
    : `${cityName(region.city)} (${code}; ${providerLabel(region.provider)}: ${own})`;
}

/**
 * Asks GET /regions once for each `generation` (a new key is a new generation; undefined: no key
 * yet, nothing asked) and re-renders the caller when the answer arrives.
 */
export function usePlaces(generation: number | undefined): void {
  const [, setVersion] = useState(0);
  const [attempt, setAttempt] = useState(0);
  // Asked again by itself while the server is away, so names come back with it.
  useRecovery(failure, () => setAttempt((n) => n + 1));
  useLayoutEffect(() => {
    if (generation === undefined) return;
    let live = true;
    apiJson<RegionsData>('/regions').then(
      (data) => {
        if (!live) return;
        current = data;
        failure = undefined;
        setVersion((n) => n + 1);
      },
      // Without them the page names providers and places by their identifiers.
      (error: unknown) => {
        if (!live) return;
        failure = error;
        setVersion((n) => n + 1);
      },
    );
    return () => {
      live = false;
    };
  }, [generation, attempt]);
}
