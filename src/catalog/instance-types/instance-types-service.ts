// GET /instance-types (D46) as a core function: records in (the catalogue index's records
// matching the filters), the response body out. The route parses, calls this and sends.
import type { InstanceRow } from '../records.js';
import type { InstanceTypesQuery } from './instance-types-query.js';
import { toInstanceTypeJson } from './instance-type-json.js';
import { instanceTypesPage } from './pivot.js';
import { cityOfRegion } from '../model.js';

export function instanceTypesBody(
  records: readonly InstanceRow[],
  query: InstanceTypesQuery,
  lastSync: Date | null,
): object {
  const page = instanceTypesPage(records, query);
  const { limit, offset, money } = query;
  return {
    success: true,
    data: {
      instance_types: page.types.map((type) => toInstanceTypeJson(type, money, query.columns)),
      pagination: {
        total: page.total,
        limit,
        offset,
        has_more: offset + page.types.length < page.total,
      },
      metadata: {
        last_sync: lastSync === null ? null : lastSync.toISOString(),
        filters_applied: query.filtersApplied,
        regions: query.regions,
        available_in: query.availableIn,
        // Only by city (D56): a default answer stays as it was.
        ...(query.columns === 'city' && {
          columns: query.columns,
          cities: [...new Set(query.regions.map((code) => cityOfRegion(code)!))],
        }),
        ...(money.note !== undefined && { exchange_rate: money.note }),
      },
    },
  };
}
