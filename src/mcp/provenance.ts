// Provenance lines for the tools' text summaries (D37): per provider, when its figures were
// observed upstream and from which source. Read from the store's provider states once per
// catalogue version (a sync that changes the figures commits a new version), so a tool call costs
// no extra query; one entry at a time, so it holds at most three providers' lines.
import { ageDays } from '../catalog/freshness.js';
import type { CatalogIndexHolder } from '../catalog/index/catalog-index-holder.js';
import type { ProviderName } from '../catalog/model.js';
import type { CatalogStore } from '../storage/catalog-store.js';

export interface ProviderProvenance {
  readonly provider: ProviderName;
  readonly displayName: string;
  /** `snapshot` or `live` (D37); null before the provider's first successful sync. */
  readonly kind: 'snapshot' | 'live' | null;
  readonly observedAt: Date | null;
  readonly source: string | null;
}

export class ProvenanceNotes {
  readonly #store: Pick<CatalogStore, 'providerStates'>;
  readonly #catalog: Pick<CatalogIndexHolder, 'current'>;
  readonly #displayNames: Readonly<Record<ProviderName, string>>;
  #memo: { version: number; notes: Promise<readonly ProviderProvenance[]> } | undefined;

  constructor(
    store: Pick<CatalogStore, 'providerStates'>,
    catalog: Pick<CatalogIndexHolder, 'current'>,
    displayNames: Readonly<Record<ProviderName, string>>,
  ) {
    this.#store = store;
    this.#catalog = catalog;
    this.#displayNames = displayNames;
  }

  /** Every provider's provenance as of the current catalogue version. */
  notes(): Promise<readonly ProviderProvenance[]> {
    const version = this.#catalog.current?.version ?? -1;
    let memo = this.#memo;
    if (memo?.version !== version) {
      const notes = this.#store.providerStates().then((states) =>
        states.map((state) => ({
          provider: state.provider,
          displayName: this.#displayNames[state.provider] ?? state.provider,
          kind: state.dataSource?.kind ?? null,
          observedAt: state.dataSource?.observedAt ?? null,
          source: state.dataSource?.source ?? null,
        })),
      );
      const made = { version, notes };
      this.#memo = memo = made;
      // A failed read is not kept: the next call asks the store again.
      notes.catch(() => {
        if (this.#memo === made) this.#memo = undefined;
      });
    }
    return memo.notes;
  }

  /**
   * "Provenance: ..." for the providers named (every provider when omitted), one line each; a
   * note saying so when the store cannot be read (the answer itself is still given).
   */
  async text(providers?: ReadonlySet<string>, now: number = Date.now()): Promise<string> {
    let notes: readonly ProviderProvenance[];
    try {
      notes = await this.notes();
    } catch {
      return 'Provenance: unavailable (the database did not answer); see get_freshness.';
    }
    const lines = notes
      .filter((note) => providers === undefined || providers.has(note.provider))
      .map((note) => `- ${provenanceLine(note, now)}`);
    return lines.length === 0
      ? ''
      : `Provenance (prices as observed upstream):\n${lines.join('\n')}`;
  }
}

/** "<display name> (<provider>): snapshot observed 2025-02-13 (286 days ago); source: ..." */
export function provenanceLine(note: ProviderProvenance, now: number): string {
  const who = `${note.displayName} (${note.provider})`;
  if (note.observedAt === null) return `${who}: no figures yet (never synced)`;
  const days = ageDays(note.observedAt, now);
  return `${who}: ${note.kind ?? 'data'} observed ${note.observedAt.toISOString().slice(0, 10)} (${days} day(s) ago); source: ${note.source ?? 'unknown'}`;
}
