// Additions, removals and returns, one line per sync and kind: a first import of 2,416 records
// reads "2,416 records added on …", not 2,416 rows. Small groups list their records.
import { Link } from '../components';
import { count, dateTime } from '../format';
import { CHANGE_KIND_LABEL, type ChangeItem } from '../model';
import { providerLabel, regionLabel } from '../places';

export const MEMBERSHIP_KINDS = ['added', 'removed', 'returned'] as const;
const VERB: Readonly<Record<string, string>> = {
  added: 'added',
  removed: 'removed (no longer offered)',
  returned: 'offered again',
};
/** A group this small lists its records; a larger one is only counted. */
const LISTED_AT_MOST = 20;

interface Group {
  readonly syncId: string;
  readonly kind: string;
  readonly at: string;
  readonly items: ChangeItem[];
}

/** Groups by sync and kind, newest sync first (items arrive in any order). */
export function groupBySync(items: readonly ChangeItem[]): Group[] {
  const groups = new Map<string, Group>();
  for (const item of items) {
    const key = `${item.sync_id} ${item.kind}`;
    const group = groups.get(key);
    if (group === undefined) {
      groups.set(key, { syncId: item.sync_id, kind: item.kind, at: item.at, items: [item] });
    } else {
      group.items.push(item);
      if (item.at < group.at) groups.set(key, { ...group, at: item.at });
    }
  }
  const order = (kind: string) => (MEMBERSHIP_KINDS as readonly string[]).indexOf(kind);
  return [...groups.values()].sort((a, b) =>
    a.at === b.at ? order(a.kind) - order(b.kind) : a.at < b.at ? 1 : -1,
  );
}

function perProvider(items: readonly ChangeItem[]): string {
  const counts = new Map<string, number>();
  for (const i of items)
    counts.set(i.instance.provider, (counts.get(i.instance.provider) ?? 0) + 1);
  return [...counts].map(([p, n]) => `${providerLabel(p)} ${count.format(n)}`).join(', ');
}

export function MembershipChanges({
  items,
  complete,
  keep,
}: {
  items: readonly ChangeItem[];
  complete: boolean;
  keep: { currency?: string | undefined };
}) {
  const groups = groupBySync(items);
  if (groups.length === 0) {
    return <p class="small">No record was added, removed or offered again in these dates.</p>;
  }
  return (
    <ul class="membership">
      {groups.map((g) => (
        <li key={`${g.syncId} ${g.kind}`}>
          <span class={`badge kind-${g.kind}`}>{CHANGE_KIND_LABEL[g.kind] ?? g.kind}</span>{' '}
          <strong>
            {complete ? '' : 'at least '}
            {count.format(g.items.length)} record{g.items.length === 1 ? '' : 's'} {VERB[g.kind]}
          </strong>{' '}
          on <time dateTime={g.at}>{dateTime(g.at)}</time> ({perProvider(g.items)})
          {g.items.length <= LISTED_AT_MOST && (
            <ul class="membership-records small">
              {g.items.map((c) => (
                <li key={c.id}>
                  <Link to={{ view: 'instance', id: String(c.instance.id), ...keep }}>
                    {c.instance.instance_name === c.instance.instance_id
                      ? c.instance.instance_id
                      : `${c.instance.instance_name} (${c.instance.instance_id})`}
                  </Link>{' '}
                  in {regionLabel(c.instance.region_code)}
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ul>
  );
}
