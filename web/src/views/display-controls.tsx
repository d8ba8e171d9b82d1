// The Instances view's display controls: price per instance / vCPU / GiB, the period, the
// currency, the purchase option (D61) and the visible columns, each in the URL (D50).
import { useState } from 'preact/hooks';
import { PERIODS, UNIT_LABEL, UNITS } from '../format';
import { CURRENCIES, currencyLabel } from '../model';
import { optionParam } from '../purchase-options';
import { navigate } from '../url-state';
import { closeOnEscape, closeOnFocusOut } from './filters';
import { PurchaseOptionField, PurchaseOptionNote } from './purchase-option-field';
import { COLUMNS, DEFAULT_COLUMNS, visibleColumns, type Display } from './instance-columns';

export function DisplayControls({
  params,
  display,
}: {
  params: URLSearchParams;
  display: Display;
}) {
  const shown = visibleColumns(params.get('cols')).map((c) => c.id);
  const [open, setOpen] = useState(false);
  const setCols = (ids: string[]) => {
    const ordered = COLUMNS.map((c) => c.id).filter((id) => ids.includes(id));
    const same =
      ordered.length === DEFAULT_COLUMNS.length &&
      ordered.every((id) => DEFAULT_COLUMNS.includes(id));
    navigate({ cols: same ? undefined : ordered.join(',') });
  };
  return (
    <>
      <div class="display-controls">
        <div class="field">
          <label for="unit">Price</label>
          <select
            id="unit"
            value={display.unit}
            onChange={(e) =>
              navigate({
                unit: e.currentTarget.value === 'instance' ? undefined : e.currentTarget.value,
              })
            }
          >
            {UNITS.map((u) => (
              <option key={u} value={u}>
                {UNIT_LABEL[u]}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="period">Period</label>
          <select
            id="period"
            value={display.period}
            onChange={(e) =>
              navigate({
                period: e.currentTarget.value === 'month' ? undefined : e.currentTarget.value,
              })
            }
          >
            {PERIODS.map((p) => (
              <option key={p} value={p}>
                per {p}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="currency">Currency</label>
          <select
            id="currency"
            value={display.currency}
            onChange={(e) =>
              navigate({
                currency: e.currentTarget.value === 'USD' ? undefined : e.currentTarget.value,
              })
            }
          >
            {CURRENCIES.map((c) => (
              <option key={c} value={c}>
                {currencyLabel(c)}
              </option>
            ))}
          </select>
        </div>
        <PurchaseOptionField
          id="purchase-option"
          value={display.option}
          // A new option is a new list (other records, other prices): back to its first page.
          onChange={(o) => navigate({ purchase_option: optionParam(o), page: undefined })}
        />
        <details
          class="columns"
          open={open}
          onToggle={(e) => setOpen(e.currentTarget.open)}
          onKeyDown={closeOnEscape}
          onFocusOut={closeOnFocusOut}
        >
          <summary>Columns</summary>
          {/* The checkboxes exist only while the menu is open: less to build on first load. */}
          {open && (
            <fieldset>
              <legend>Visible columns</legend>
              {COLUMNS.map((c) => (
                <label key={c.id} class="check">
                  <input
                    type="checkbox"
                    checked={shown.includes(c.id)}
                    onChange={(e) =>
                      setCols(
                        e.currentTarget.checked
                          ? [...shown, c.id]
                          : shown.filter((id) => id !== c.id),
                      )
                    }
                  />
                  {c.label(display)}
                </label>
              ))}
              <div class="row">
                <button type="button" onClick={() => setCols(DEFAULT_COLUMNS)}>
                  Defaults
                </button>
                <button type="button" onClick={() => setCols(COLUMNS.map((c) => c.id))}>
                  All
                </button>
              </div>
            </fieldset>
          )}
        </details>
      </div>
      <PurchaseOptionNote id="purchase-option" option={display.option} />
    </>
  );
}
