// A short account of the POST /recommend scoring for the OpenAPI description; the full rules,
// with pros/cons, are in docs/recommend-scoring.md. Keep the two in step with score.ts/rank.ts.

export const SCORING_DESCRIPTION = `**Scoring.** Candidates are available records (instance type in a region) with \`memory_mb >= min_memory_mb\`, after the \`providers\`/\`regions\` filters.
With r = memory_mb / min_memory_mb: r <= 1.2 scores 100, 1.2 < r <= 1.5 scores 90, r > 1.5 scores 70; \`vcpu < min_vcpu\` subtracts 10; a monthly price above \`budget_max\` subtracts 20 (and adds a con); the result is clamped to 0..100.

**Order.** \`match_score\` descending, then the tie-break value 0.4 x (min_memory_mb / memory_mb) + 0.3 x min(vcpu / min_vcpu, 1) + 0.2 x (max price - price) / (max price - min price) + 0.1 x storage_gb / max storage_gb (bounds over all candidates; a term is 1 for price and 0 for storage when its range is empty), then monthly price ascending, then record id.
One record per (provider, instance type) is kept (its best region); the list is cut to \`limit\` (default 10, at most 50).`;
