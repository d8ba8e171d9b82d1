// API features the page uses that arrived after the first four endpoints. A view or control
// appears only when its endpoint exists on the server this page is built with.
export const FEATURES = {
  /** GET /instances?format=csv (D47). */
  csv: true,
  /** `currency` parameters (D43). */
  currency: true,
  /** sort_by=price_per_vcpu|price_per_gb (D45). */
  unitSort: true,
  /** GET /instances/{id}/history (D39): the compare view and the instance page need it. */
  history: true,
  /** GET /changes (D40). */
  changes: true,
  /** `region` as a comma-separated list on /instances (D53). */
  regionList: true,
  /** `q`, name search on /instances (D54). */
  search: true,
  /** GET /instance-types (D46). */
  instanceTypes: true,
} as const;
