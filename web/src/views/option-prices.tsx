// The instance page's purchase options (D61): the record's price under every option it is sold
// under (hourly, monthly, against on-demand, observed date), the chosen one marked, and AWS's
// Spot Instance Advisor figure, which is AWS's published estimate and never shown as a price.
import { money, percent } from '../format';
import type { InstanceRecord } from '../model';
import { day } from '../provenance';
import {
  OPTION_LABEL,
  PURCHASE_OPTIONS,
  recordOptions,
  spotAdviceText,
  type PurchaseOption,
} from '../purchase-options';

export function OptionPrices({
  record: r,
  currency,
  option,
}: {
  record: InstanceRecord;
  currency: string;
  /** The option the person chose (URL), sold under or not. */
  option: PurchaseOption;
}) {
  const sold = recordOptions(r);
  const missing = PURCHASE_OPTIONS.filter((o) => !sold.includes(o));
  const onDemand = r.pricing.options['on_demand']?.monthly_price;
  return (
    <>
      {!sold.includes(option) && (
        <p class="note" role="note">
          {r.provider.display_name} does not sell this record as {OPTION_LABEL[option]}: its prices
          below and in the tables further down are on-demand.
        </p>
      )}
      <div class="table-wrap" tabIndex={0} role="region" aria-labelledby="options-title">
        <table class="data option-prices">
          <caption class="visually-hidden">
            {r.instance_id} in {r.region.region_name} under each purchase option it is sold under
          </caption>
          <thead>
            <tr>
              <th scope="col" class="name-col">
                Purchase option
              </th>
              <th scope="col" class="num">
                Hourly ({currency})
              </th>
              <th scope="col" class="num">
                Monthly ({currency})
              </th>
              <th scope="col" class="num">
                vs on-demand
              </th>
              <th scope="col">Observed</th>
            </tr>
          </thead>
          <tbody>
            {sold.map((o) => {
              const price = r.pricing.options[o]!;
              return (
                <tr key={o} class={o === option ? 'is-chosen' : undefined}>
                  <th scope="row" class="name-col">
                    {OPTION_LABEL[o]}
                    {o === option && <span class="small"> · chosen</span>}
                  </th>
                  <td class="num">{money(price.hourly_price, currency, true)}</td>
                  <td class="num">{money(price.monthly_price, currency)}</td>
                  <td class="num">
                    {o === 'on_demand' || onDemand === undefined || onDemand === 0
                      ? '—'
                      : percent(((price.monthly_price - onDemand) / onDemand) * 100)}
                  </td>
                  <td>
                    <time dateTime={price.observed_at}>{day(price.observed_at)}</time>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {missing.length > 0 && (
        <p class="small">
          No price published for this record as {missing.map((o) => OPTION_LABEL[o]).join(', ')}
          {r.provider.name === 'provider_c' && missing.includes('spot')
            ? ' (spot prices appear when this server reads AWS’s spot price feed)'
            : ''}
          .
        </p>
      )}
      <SpotAdvice record={r} />
    </>
  );
}

/** AWS's figure as AWS publishes it, with its source; nothing here is a price. */
export function SpotAdvice({ record: r }: { record: InstanceRecord }) {
  const advice = r.pricing.spot_advice;
  if (advice === null) return null;
  return (
    <div class="spot-advice">
      <p>{spotAdviceText(advice)}</p>
      <p class="small">
        AWS’s own estimate of how often spot capacity of this type in this region was taken back and
        how much less spot cost than on-demand; it is not a price observed here. Source:{' '}
        {advice.source}.
      </p>
    </div>
  );
}
