// Which recorded AWS rows the test copy of the provider_c snapshot keeps (test/fixtures/
// snapshots/): common families in small sizes plus a bare-metal and an accelerator type, about
// 300 records, so route and sync tests that do not need the whole catalogue stay quick.

const FAMILIES = new Set([
  't2',
  't3',
  't4g',
  'm5',
  'm6i',
  'm7g',
  'c5',
  'c6i',
  'c7g',
  'r5',
  'r6i',
  'i4i',
  'g4dn',
  'g5',
  'inf1',
]);
const SIZES = new Set(['nano', 'micro', 'small', 'medium', 'large', 'xlarge', '2xlarge', 'metal']);

export function isFixtureRow(row: { readonly instanceType: string }): boolean {
  const [family = '', size = ''] = row.instanceType.split('.');
  return FAMILIES.has(family) && SIZES.has(size);
}
