// The purchase-option selector (D61), beside the currency: the option's name, what it means, and,
// for any option but on-demand, that only records sold under it are listed.
import {
  ALL_OPTIONS,
  OPTION_LABEL,
  OPTION_MEANING,
  PURCHASE_OPTIONS,
  type FeedOption,
  type PurchaseOption,
} from '../purchase-options';

/** The "All options" entry's label (Changes only: no other view lists several options). */
export const ALL_OPTIONS_LABEL = 'All options';

export function PurchaseOptionField<T extends FeedOption = PurchaseOption>({
  id,
  value,
  onChange,
  all = false,
}: {
  id: string;
  value: T;
  onChange: (option: T) => void;
  /** Offer "All options" (`all`) after the options: only where `T` admits it. */
  all?: boolean;
}) {
  return (
    <div class="field option-field">
      <label for={id}>Purchase option</label>
      <select
        id={id}
        value={value}
        aria-describedby={`${id}-meaning`}
        onChange={(e) => onChange(e.currentTarget.value as T)}
      >
        {PURCHASE_OPTIONS.map((o) => (
          <option key={o} value={o}>
            {OPTION_LABEL[o]}
          </option>
        ))}
        {all && <option value={ALL_OPTIONS}>{ALL_OPTIONS_LABEL}</option>}
      </select>
    </div>
  );
}

/**
 * What the chosen option means; for any but on-demand, which records it leaves out (`list`),
 * which records have no price under it (`compare`: the records are the ones chosen), or whose
 * changes are listed (`changes`, where `all` lists every option's, each marked with its own).
 */
export function PurchaseOptionNote({
  id,
  option,
  scope = 'list',
}: {
  id: string;
  option: FeedOption;
  scope?: 'list' | 'compare' | 'changes';
}) {
  if (option === ALL_OPTIONS) {
    return (
      <p id={`${id}-meaning`} class="small option-note">
        <strong>{ALL_OPTIONS_LABEL}:</strong> the changes of every purchase option, each marked with
        its option: an option's prices change apart from the others'.
      </p>
    );
  }
  const label = OPTION_LABEL[option];
  const leftOut = {
    list: ` Only records sold as ${label} are listed, each priced by it: Linode and Vultr publish on-demand prices only.`,
    compare: ` A record not sold as ${label} says so: Linode and Vultr publish on-demand prices only.`,
    changes: ` Only the changes of ${label} prices are listed: Linode and Vultr publish on-demand prices only.`,
  }[scope];
  return (
    <p id={`${id}-meaning`} class="small option-note">
      <strong>{label}:</strong> {OPTION_MEANING[option]}
      {option !== 'on_demand' && leftOut}
    </p>
  );
}
