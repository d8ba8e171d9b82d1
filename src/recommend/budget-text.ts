// Money in the budget sentences of pros and cons, in the currency the client asked for (D43):
// a budget given in JPY is talked about in JPY. Amounts come from exact integers, never floats.
import { formatMinor, type MoneyView } from '../catalog/money-view.js';
import { pow10, type ExactDecimal } from '../catalog/exact-decimal.js';
import { formatUsd, groupThousands } from './format.js';

export interface BudgetText {
  /** A monthly price: "$12.50", "1,976 JPY". */
  price(monthlyMicros: number): string;
  /** The budget as the client gave it. */
  readonly budget: string;
  /** How far a monthly price is over the budget. */
  over(monthlyMicros: number): string;
}

export function usdBudgetText(budgetMaxMicros: number): BudgetText {
  return {
    price: formatUsd,
    budget: formatUsd(budgetMaxMicros),
    over: (monthlyMicros) => formatUsd(monthlyMicros - budgetMaxMicros),
  };
}

/**
 * A displayed monthly amount (minor units of the response currency) as sentences write it:
 * "$4.00" in USD, "1,976 JPY" otherwise.
 */
export function formatMonthlyMinor(money: MoneyView, minor: bigint): string {
  const text = grouped(formatMinor(minor, money.monthlyDigits));
  return money.currency === 'USD' ? `$${text}` : `${text} ${money.currency}`;
}

/** Plain decimal text with its whole part grouped: "1234.50" -> "1,234.50". */
function grouped(text: string): string {
  const point = text.indexOf('.');
  return point < 0
    ? groupThousands(text)
    : `${groupThousands(text.slice(0, point))}${text.slice(point)}`;
}

export function currencyBudgetText(money: MoneyView, given: ExactDecimal): BudgetText {
  // 1000.000000 is written 1,000: only the digits the amount needs, at least the minor unit's.
  let budget = given;
  while (budget.scale > 0 && budget.units % 10n === 0n) {
    budget = { units: budget.units / 10n, scale: budget.scale - 1 };
  }
  const digits = money.monthlyDigits;
  const code = money.currency;
  const scale = Math.max(digits, budget.scale);
  const budgetUnits = budget.units * pow10(scale - budget.scale);
  return {
    price: (m) => `${grouped(formatMinor(money.monthlyMinor(m), digits))} ${code}`,
    budget: `${grouped(formatMinor(budgetUnits, scale))} ${code}`,
    over(m) {
      const shown = money.monthlyMinor(m) * pow10(scale - digits);
      const over = shown > budgetUnits ? shown - budgetUnits : 0n;
      return `${grouped(formatMinor(over, scale))} ${code}`;
    },
  };
}
