// The purchase-option selector (D61), beside the currency: the option's name, what it means, and,
// for any option but on-demand, that only records sold under it are listed.
import {
  OPTION_LABEL,
  OPTION_MEANING,
  PURCHASE_OPTIONS,
  type PurchaseOption,
} from '../purchase-options';

export function PurchaseOptionField({
  id,
  value,
  onChange,
}: {
  id: string;
  value: PurchaseOption;
  onChange: (option: PurchaseOption) => void;
}) {
  return (
    <div class="field option-field">
      <label for={id}>Purchase option</label>
      <select
        id={id}
        value={value}
        aria-describedby={`${id}-meaning`}
        onChange={(e) => onChange(e.currentTarget.value as PurchaseOption)}
      >
        {PURCHASE_OPTIONS.map((o) => (
          <option key={o} value={o}>
            {OPTION_LABEL[o]}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * What the chosen option means; for any but on-demand, which records it leaves out (a list) or
 * which records have no price under it (`compare`: the records are the ones chosen).
 */
export function PurchaseOptionNote({
  id,
  option,
  compare = false,
}: {
  id: string;
  option: PurchaseOption;
  compare?: boolean;
}) {
  const label = OPTION_LABEL[option];
  return (
    <p id={`${id}-meaning`} class="small option-note">
      <strong>{label}:</strong> {OPTION_MEANING[option]}
      {option !== 'on_demand' &&
        (compare
          ? ` A record not sold as ${label} says so: Linode and Vultr publish on-demand prices only.`
          : ` Only records sold as ${label} are listed, each priced by it: Linode and Vultr publish on-demand prices only.`)}
    </p>
  );
}
