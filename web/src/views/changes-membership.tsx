// Additions, removals and returns, one line per sync and kind, from the feed's summary (ADR
// 0022): a first import of 2,284 records reads "2,284 records added on …", not 2,284 rows, and
// no item is read to count it. A small group lists its records on request, with one query for
// that sync and kind.
import { useState } from 'preact/hooks';
import { ErrorMessage, Link } from '../components';
import { count, dateTime } from '../format';
import { CHANGE_KIND_LABEL, type ChangesData } from '../model';
import { providerLabel, regionLabel } from '../places';
import { OPTION_LABEL, optionParam } from '../purchase-options';
import { useApi } from '../use-api';
import { nameText } from './instance-columns';

export const MEMBERSHIP_KINDS = ['added', 'removed', 'returned'] as const;
const VERB: Readonly<Record<string, string>> = {
  added: 'added',
  removed: 'removed (no longer offered)',
  returned: 'offered again',
};
/** A group this small can list its records; a larger one is only counted. */
const LISTED_AT_MOST = 20;

type Summary = NonNullable<ChangesData['summary']>;

interface Group {
  readonly syncId: string;
  readonly kind: string;
  readonly at: string;
  readonly count: number;
  /** Per provider, in the summary's order. */
  readonly providers: [string, number][];
}

/** The summary's (sync, kind, provider) counts as one group per sync and kind, newest first. */
export function groupBySync(syncs: Summary['syncs']): Group[] {
  const groups = new Map<string, Group>();
  for (const s of syncs) {
    const key = `${s.sync_id} ${s.kind}`;
    const group = groups.get(key) ?? {
      syncId: s.sync_id,
      kind: s.kind,
      at: s.at,
      count: 0,
      providers: [],
    };
    groups.set(key, {
      ...group,
      count: group.count + s.count,
      providers: [...group.providers, [s.provider, s.count]],
    });
  }
  const order = (kind: string) => (MEMBERSHIP_KINDS as readonly string[]).indexOf(kind);
  return [...groups.values()].sort((a, b) =>
    a.at === b.at ? order(a.kind) - order(b.kind) : a.at < b.at ? 1 : -1,
  );
}

export function MembershipChanges({
  summary,
  base,
  keep,
}: {
  summary: Summary;
  /** The view's filters as /changes parameters: a group's records are listed under them. */
  base: URLSearchParams;
  keep: { currency?: string | undefined };
}) {
  const groups = groupBySync(summary.syncs);
  // Under every option (D61) an item is one record's price under one option: a sync that added
  // four reserved terms to a record counts four items for it. Those are prices, not records.
  const noun = base.get('purchase_option') === 'all' ? 'price' : 'record';
  if (groups.length === 0) {
    return <p class="small">No record was added, removed or offered again in these dates.</p>;
  }
  return (
    <>
      <ul class="membership">
        {groups.map((g) => (
          <li key={`${g.syncId} ${g.kind}`}>
            <span class={`badge kind-${g.kind}`}>{CHANGE_KIND_LABEL[g.kind] ?? g.kind}</span>{' '}
            <strong>
              {`${count.format(g.count)} ${noun}${g.count === 1 ? '' : 's'} ${VERB[g.kind]}`}
            </strong>{' '}
            on <time dateTime={g.at}>{dateTime(g.at)}</time> (
            {g.providers.map(([p, n]) => `${providerLabel(p)} ${count.format(n)}`).join(', ')})
            {g.count <= LISTED_AT_MOST && (
              <GroupRecords group={g} noun={noun} base={base} keep={keep} />
            )}
          </li>
        ))}
      </ul>
      {!summary.syncs_complete && <p class="small">Older syncs are not listed.</p>}
    </>
  );
}

/** A small group's records, read when the reader opens the list. */
function GroupRecords({
  group,
  noun,
  base,
  keep,
}: {
  group: Group;
  /** What the group counts: `record`, or `price` under every option. */
  noun: string;
  base: URLSearchParams;
  keep: { currency?: string | undefined };
}) {
  const [open, setOpen] = useState(false);
  const query = new URLSearchParams(base);
  query.set('kind', group.kind);
  query.set('sync_id', group.syncId);
  query.set('limit', String(LISTED_AT_MOST));
  const records = useApi<ChangesData>(open ? `/changes?${query.toString()}` : null);
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary class="small">
        List {group.count === 1 ? 'it' : `the ${count.format(group.count)} ${noun}s`}
      </summary>
      <ErrorMessage error={records.error} onRetry={records.reload} />
      {records.data !== undefined && (
        <ul class="membership-records small">
          {records.data.changes.map((c) => (
            <li key={c.id}>
              <Link
                to={{
                  view: 'instance',
                  id: String(c.instance.id),
                  ...keep,
                  purchase_option: optionParam(c.purchase_option),
                }}
              >
                {nameText(c.instance)}
              </Link>{' '}
              in {regionLabel(c.instance.region_code)}
              {c.purchase_option === 'on_demand' ? '' : `, ${OPTION_LABEL[c.purchase_option]}`}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
