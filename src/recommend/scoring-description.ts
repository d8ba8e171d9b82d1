// A short account of the POST /recommend scoring for the OpenAPI description; the full rules,
// with pros/cons, are in docs/recommend-scoring.md. Keep the two in step with score.ts/rank.ts.

export const SCORING_DESCRIPTION = `**Scoring.** Candidates are available records (instance type in a region) with \`memory_mb >= min_memory_mb\`, after the \`providers\`/\`regions\` filters.
With r = memory_mb / min_memory_mb: r <= 1.2 scores 100, 1.2 < r <= 1.5 scores 90, r > 1.5 scores 70; \`vcpu < min_vcpu\` subtracts 10; a monthly price above \`budget_max\` subtracts 20 (and adds a con); the result is clamped to 0..100.

**Order (D58).** \`match_score\` descending, then \`score_breakdown.tie_break\` descending, then monthly price ascending, then record id. tie_break = 0.4 x memory_fit + 0.3 x vcpu_fit + 0.2 x price_fit + 0.1 x storage_fit, with memory_fit = min_memory_mb / memory_mb, vcpu_fit = min(1, vcpu / min_vcpu), price_fit = cheapest / monthly (cheapest: the lowest monthly price among all candidates, over-budget ones included), storage_fit = 1 with local storage, 0.5 without; computed from the unrounded fits.
One record per (provider, instance type) is kept (its best region); the list is cut to \`limit\` (default 10, at most 50).`;
