// API features the page uses that arrived after the first four endpoints. A view or control
// appears only when its endpoint exists on the server this page is built with.
export const FEATURES = {
  /** GET /instances?format=csv (D47). */
  csv: false,
  /** `currency` parameters (D43). */
  currency: false,
  /** sort_by=price_per_vcpu|price_per_gb (D45). */
  unitSort: false,
  /** GET /instances/{id}/history (D39): the compare view and the instance page need it. */
  history: false,
  /** GET /changes (D40). */
  changes: false,
  /** GET /instance-types (D46). */
  instanceTypes: false,
} as const;
