// Properties of POST /recommend's ranking and sentences (D28, D30, D58) on random catalogues,
// each checked against a straightforward reference written here from the decisions' text.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ASIAN_REGIONS, PROVIDER_NAMES } from '../catalog/model.js';
import { recommend } from './rank.js';
import type { Candidate, RankCriteria } from './rank.js';
import { buildRecommendations, type RecommendData } from './recommend.js';
import { computeRequirements } from './requirements.js';
import { SCALES, STACK_NAMES } from './stacks.js';
import { parseRecommendRequest, type RecommendRequest } from './validate-request.js';

const DAY = 86_400_000;
/** Prices observed at or before this are stale in these tests. */
const STALE_AT_OR_BEFORE = Date.UTC(2026, 7, 1);
const OBSERVED = [Date.UTC(2024, 6, 11), Date.UTC(2026, 7, 1), Date.UTC(2026, 10, 20) + 5 * DAY];

interface Case {
  readonly candidates: readonly Candidate[];
  readonly criteria: RankCriteria;
  /** The same request as a validated POST /recommend body. */
  readonly request: RecommendRequest;
}

/** Memory around the requirement, with the band edges (1.2x, 1.5x) and just past them often. */
function memoryArb(min: number): fc.Arbitrary<number> {
  return fc.oneof(
    fc.constantFrom(min - 1, min, Math.floor(min * 1.2), Math.floor(min * 1.2) + 1, min * 2),
    fc.integer({ min: Math.max(1, min - 2048), max: min * 4 }),
  );
}

function candidateArb(min: number): fc.Arbitrary<Omit<Candidate, 'id'>> {
  return fc
    .record({
      region: fc.constantFrom(...ASIAN_REGIONS),
      // Few instance types so the same (provider, type) appears in several regions.
      type: fc.integer({ min: 1, max: 6 }),
      vcpu: fc.integer({ min: 1, max: 16 }),
      memoryMb: memoryArb(min),
      storageGb: fc.constantFrom(0, 0, 25, 80, 640),
      transferTb: fc.constantFrom(0, 0.5, 1, 4),
      gpuCount: fc.constantFrom(0, 0, 0, 1, 2),
      // Whole cents (as the catalogue holds them); a small set makes equal prices common.
      cents: fc.oneof(
        fc.constantFrom(0, 500, 1000, 2000, 4000),
        fc.integer({ min: 1, max: 50_000 }),
      ),
      observedAt: fc.constantFrom(...OBSERVED),
    })
    .map((r) => ({
      providerName: r.region.provider,
      instanceId: `t${r.type}`,
      instanceName: `Type ${r.type}`,
      regionCode: r.region.regionCode,
      regionName: r.region.regionName,
      vcpu: r.vcpu,
      memoryMb: r.memoryMb,
      storageGb: r.storageGb,
      transferTb: r.transferTb,
      gpuCount: r.gpuCount,
      gpuType: r.gpuCount > 0 ? 'NVIDIA A100' : null,
      monthlyMicros: r.cents * 10_000,
      hourlyMicros: Math.round((r.cents * 10_000) / 730),
      observedAt: r.observedAt,
    }));
}

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    stack: fc.subarray([...STACK_NAMES], { minLength: 1 }),
    scale: fc.constantFrom(...SCALES),
    budgetCents: fc.option(fc.integer({ min: 1, max: 30_000 }), { nil: undefined }),
    limit: fc.option(fc.integer({ min: 1, max: 50 }), { nil: undefined }),
    providers: fc.option(fc.subarray([...PROVIDER_NAMES], { minLength: 1 }), { nil: undefined }),
    regions: fc.option(
      fc.subarray(
        ASIAN_REGIONS.map((r) => r.regionCode),
        { minLength: 1 },
      ),
      { nil: undefined },
    ),
  })
  .chain((r) => {
    const parsed = parseRecommendRequest({
      stack: r.stack,
      scale: r.scale,
      ...(r.budgetCents === undefined ? {} : { budget_max: r.budgetCents / 100 }),
      ...(r.limit === undefined ? {} : { limit: r.limit }),
      ...(r.providers === undefined ? {} : { providers: r.providers }),
      ...(r.regions === undefined ? {} : { regions: r.regions }),
    });
    if (!parsed.ok) throw new Error(parsed.error.message);
    const request = parsed.value;
    const { minMemoryMb, minVcpu } = computeRequirements(r.stack, r.scale);
    const criteria: RankCriteria = {
      minMemoryMb,
      minVcpu,
      limit: request.limit,
      ...(request.budgetMaxMicros === undefined
        ? {}
        : { budgetMaxMicros: request.budgetMaxMicros }),
      ...(request.providers === undefined ? {} : { providers: request.providers }),
      ...(request.regions === undefined ? {} : { regions: request.regions }),
    };
    // Most records take their type's specs, as an instance type offered in several regions
    // does (one spec, prices apart); the rest keep their own.
    const specsArb = fc.array(
      fc.record({ vcpu: fc.integer({ min: 1, max: 16 }), memoryMb: memoryArb(minMemoryMb) }),
      { minLength: 6, maxLength: 6 },
    );
    const recordsArb = fc
      .tuple(
        fc.array(fc.tuple(candidateArb(minMemoryMb), fc.boolean()), { maxLength: 120 }),
        specsArb,
      )
      .map(([drawn, specs]) =>
        drawn.map(([c, ownSpec]) => {
          if (ownSpec) return c;
          const typeSpec = specs[Number(c.instanceId.slice(1)) - 1]!;
          return { ...c, ...typeSpec, storageGb: c.instanceId === 't1' ? 0 : 80 };
        }),
      );
    return recordsArb.chain((cs) =>
      fc
        .uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), {
          minLength: cs.length,
          maxLength: cs.length,
        })
        .map((ids) => ({
          candidates: cs.map((c, i) => ({ ...c, id: ids[i] as number })),
          criteria,
          request,
        })),
    );
  });

// ---- The reference, from the text of D28, D30 and D58 ----

function eligible({ candidates, criteria }: Case): Candidate[] {
  return candidates.filter(
    (c) =>
      c.memoryMb >= criteria.minMemoryMb &&
      (criteria.providers?.includes(c.providerName) ?? true) &&
      (criteria.regions?.includes(c.regionCode) ?? true),
  );
}

const pairKey = (c: Candidate) => `${c.providerName}/${c.instanceId}`;

function expectedScore(c: Candidate, criteria: RankCriteria): number {
  const r = c.memoryMb / criteria.minMemoryMb;
  let score = r <= 1.2 ? 100 : r <= 1.5 ? 90 : 70;
  if (c.vcpu < criteria.minVcpu) score -= 10;
  if (criteria.budgetMaxMicros !== undefined && c.monthlyMicros > criteria.budgetMaxMicros) {
    score -= 20;
  }
  return Math.min(100, Math.max(0, score));
}

function cheapestOf(testCase: Case): number {
  return Math.min(...eligible(testCase).map((c) => c.monthlyMicros));
}

function expectedFits(c: Candidate, criteria: RankCriteria, cheapest: number) {
  const memory_fit = criteria.minMemoryMb / c.memoryMb;
  const vcpu_fit = Math.min(1, c.vcpu / criteria.minVcpu);
  const price_fit = c.monthlyMicros === 0 ? 1 : cheapest / c.monthlyMicros;
  const storage_fit = c.storageGb > 0 ? 1 : 0.5;
  const tie_break = 0.4 * memory_fit + 0.3 * vcpu_fit + 0.2 * price_fit + 0.1 * storage_fit;
  return { memory_fit, vcpu_fit, price_fit, storage_fit, tie_break };
}

/** Score everything, sort everything by D58's order, keep each pair's first, cut. */
function referenceOrder(testCase: Case): Candidate[] {
  const all = eligible(testCase);
  const cheapest = cheapestOf(testCase);
  const { criteria } = testCase;
  const keyed = all.map((c) => ({
    c,
    score: expectedScore(c, criteria),
    tie: expectedFits(c, criteria, cheapest).tie_break,
  }));
  keyed.sort(
    (a, b) =>
      b.score - a.score ||
      b.tie - a.tie ||
      a.c.monthlyMicros - b.c.monthlyMicros ||
      a.c.id - b.c.id,
  );
  const seen = new Set<string>();
  const out: Candidate[] = [];
  for (const { c } of keyed) {
    if (seen.has(pairKey(c))) continue;
    seen.add(pairKey(c));
    out.push(c);
  }
  return out.slice(0, criteria.limit ?? 10);
}

const round4 = (x: number) => Math.round(x * 10_000) / 10_000;
const build = (testCase: Case): RecommendData =>
  buildRecommendations(testCase.candidates, testCase.request, undefined, STALE_AT_OR_BEFORE);

const RUNS = { numRuns: 300 };

describe('ranking (properties)', () => {
  it('is exactly D58 order: score, tie-break, price, id; one record per (provider, type); cut to the limit', () => {
    fc.assert(
      fc.property(caseArb, (testCase) => {
        const { ranked } = recommend(testCase.candidates, testCase.criteria);
        expect(ranked.map((r) => r.candidate.id)).toEqual(
          referenceOrder(testCase).map((c) => c.id),
        );
        expect(ranked.map((r) => r.rank)).toEqual(ranked.map((_, i) => i + 1));
        for (const r of ranked)
          expect(r.parts.score).toBe(expectedScore(r.candidate, testCase.criteria));
      }),
      RUNS,
    );
  });

  it('ranks the cheaper of two candidates with the same specs and score first', () => {
    const twinsArb = fc.record({
      testCase: caseArb,
      memoryFactor: fc.constantFrom(1, 1.1, 1.3, 2),
      vcpu: fc.integer({ min: 1, max: 8 }),
      storageGb: fc.constantFrom(0, 80),
      // Two different prices, both within or both over any budget (same score).
      cents: fc.uniqueArray(fc.integer({ min: 1, max: 20_000 }), { minLength: 2, maxLength: 2 }),
      providers: fc.tuple(fc.constantFrom(...ASIAN_REGIONS), fc.constantFrom(...ASIAN_REGIONS)),
    });
    fc.assert(
      fc.property(twinsArb, ({ testCase, memoryFactor, vcpu, storageGb, cents, providers }) => {
        const { criteria } = testCase;
        const twin = (k: 0 | 1): Candidate => ({
          id: 2_000_000 + k,
          providerName: providers[k].provider,
          // Types no other record has: each twin is its own (provider, type).
          instanceId: `twin-${k}`,
          instanceName: `Twin ${k}`,
          regionCode: providers[k].regionCode,
          regionName: providers[k].regionName,
          vcpu,
          memoryMb: Math.ceil(criteria.minMemoryMb * memoryFactor),
          storageGb,
          transferTb: 0,
          gpuCount: 0,
          gpuType: null,
          monthlyMicros: cents[k]! * 10_000,
          hourlyMicros: 0,
          observedAt: OBSERVED[0]!,
        });
        const twins = [twin(0), twin(1)];
        const withTwins: Case = {
          ...testCase,
          // The filters must let both through.
          criteria: { ...criteria, providers: undefined, regions: undefined, limit: 50 },
          candidates: [...testCase.candidates, ...twins],
        };
        const [cheap, dear] = [...twins].sort((a, b) => a.monthlyMicros - b.monthlyMicros);
        const budget = criteria.budgetMaxMicros;
        fc.pre(
          budget === undefined || cheap!.monthlyMicros > budget === dear!.monthlyMicros > budget,
        );
        const ids = recommend(withTwins.candidates, withTwins.criteria).ranked.map(
          (r) => r.candidate.id,
        );
        const at = (c: Candidate) => ids.indexOf(c.id);
        if (at(dear!) >= 0) expect(at(cheap!)).toBeGreaterThanOrEqual(0);
        if (at(cheap!) >= 0 && at(dear!) >= 0) expect(at(cheap!)).toBeLessThan(at(dear!));
      }),
      RUNS,
    );
  });

  it('gives score_breakdown that recomputes from the record and the requirement', () => {
    fc.assert(
      fc.property(caseArb, (testCase) => {
        const data = build(testCase);
        const cheapest = cheapestOf(testCase);
        const byId = new Map(testCase.candidates.map((c) => [c.id, c]));
        for (const r of data.recommendations) {
          const record = byId.get(r.id)!;
          const fits = expectedFits(record, testCase.criteria, cheapest);
          expect(r.score_breakdown).toEqual({
            memory_fit: round4(fits.memory_fit),
            vcpu_fit: round4(fits.vcpu_fit),
            price_fit: round4(fits.price_fit),
            storage_fit: round4(fits.storage_fit),
            tie_break: round4(fits.tie_break),
          });
        }
      }),
      RUNS,
    );
  });
});

// ---- Sentences ----

/** Numbers in a sentence (thousands separators dropped), its date apart. */
function numbersIn(sentence: string): { numbers: number[]; date: string | undefined } {
  const date = /\d{4}-\d{2}-\d{2}/.exec(sentence)?.[0];
  const rest = date === undefined ? sentence : sentence.replace(date, '');
  const numbers = (rest.match(/\d[\d,]*(?:\.\d+)?/g) ?? []).map((t) => Number(t.replace(/,/g, '')));
  return { numbers, date };
}

const gb = (mb: number) => (mb < 1024 ? mb : Math.round((mb / 1024) * 100) / 100);

describe('pros and cons (properties)', () => {
  it('use only numbers of the response (or of the request and record they describe)', () => {
    fc.assert(
      fc.property(caseArb, (testCase) => {
        const data = build(testCase);
        const list = data.recommendations;
        const first = list[0];
        const byId = new Map(testCase.candidates.map((c) => [c.id, c]));
        const budget = testCase.request.budgetMaxMicros;
        const counted = eligible(testCase).filter(
          (c) => budget === undefined || c.monthlyMicros <= budget,
        ).length;
        const { min_memory_mb, min_vcpu } = data.requirements;
        for (const r of list) {
          const record = byId.get(r.id)!;
          const [own, base] = [r.price.monthly, first!.price.monthly].map((m) =>
            Math.round(m * 100),
          );
          const diff = (own! - base!) / 100;
          // Percent of rank 1's price, half up to one decimal, in whole cents (no float error).
          const tenths = Math.floor(((own! - base!) * 2000 + base!) / (2 * base!));
          const allowed = [
            r.price.monthly,
            first!.price.monthly,
            diff,
            tenths / 10,
            0.1,
            1, // rank 1
            1.5,
            10,
            25,
            r.specs.vcpu,
            min_vcpu,
            gb(r.specs.memory_mb),
            gb(min_memory_mb),
            gb(r.specs.memory_mb - min_memory_mb),
            counted,
            record.transferTb,
            record.gpuCount,
            ...(budget === undefined ? [] : [budget / 1e6, (record.monthlyMicros - budget) / 1e6]),
          ];
          for (const sentence of [...r.pros, ...r.cons]) {
            // A GPU's model is the record's own text, not a number.
            const { numbers, date } = numbersIn(sentence.replace(record.gpuType ?? '\u0000', ''));
            for (const n of numbers) {
              expect(
                allowed.some((a) => Math.abs(a - n) < 1e-9),
                `${n} in "${sentence}"`,
              ).toBe(true);
            }
            if (date !== undefined) {
              expect(date).toBe(new Date(record.observedAt).toISOString().slice(0, 10));
              expect(record.observedAt).toBeLessThanOrEqual(STALE_AT_OR_BEFORE);
            }
          }
        }
      }),
      RUNS,
    );
  });

  it('say how much dearer than rank 1, name missing storage and stale prices, call only the cheapest cheapest', () => {
    fc.assert(
      fc.property(caseArb, (testCase) => {
        const data = build(testCase);
        const first = data.recommendations[0];
        const cheapest = cheapestOf(testCase);
        const byId = new Map(testCase.candidates.map((c) => [c.id, c]));
        for (const r of data.recommendations) {
          const record = byId.get(r.id)!;
          const dearer = r.cons.filter((s) => s.includes('more than rank 1'));
          if (r.price.monthly > first!.price.monthly) {
            const diff =
              (Math.round(r.price.monthly * 100) - Math.round(first!.price.monthly * 100)) / 100;
            expect(dearer).toHaveLength(1);
            expect(dearer[0]).toMatch(
              new RegExp(
                `^\\$${diff.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}/month more than rank 1`,
              ),
            );
          } else {
            expect(dearer).toEqual([]);
          }
          expect(r.cons.some((s) => s.startsWith('No local storage'))).toBe(
            r.specs.storage_gb === 0,
          );
          expect(r.cons.some((s) => s.startsWith('Price observed on'))).toBe(
            record.observedAt <= STALE_AT_OR_BEFORE,
          );
          const saysCheapest = [...r.pros, ...r.cons].some((s) => /cheapest/i.test(s));
          if (saysCheapest) expect(record.monthlyMicros).toBe(cheapest);
        }
      }),
      RUNS,
    );
  });
});
