// Exact non-negative decimals as a BigInt of units and a power-of-ten scale, so that exchange
// rates and amounts in any currency never pass through floating point (D36, D43). Only the final,
// rounded amount becomes a JavaScript number.

/** `units / 10^scale`, both exact. */
export interface ExactDecimal {
  readonly units: bigint;
  readonly scale: number;
}

const DECIMAL_TEXT = /^(\d{1,30})(?:\.(\d{1,30}))?$/;

/** Parses plain decimal text ("1.1269", "20104.80", "5"); null for anything else. */
export function parseExactDecimal(text: string): ExactDecimal | null {
  const match = DECIMAL_TEXT.exec(text);
  if (!match) return null;
  const fraction = match[2] ?? '';
  return { units: BigInt(`${match[1]}${fraction}`), scale: fraction.length };
}

export function pow10(exponent: number): bigint {
  return 10n ** BigInt(exponent);
}

/** round(numerator / denominator), halves away from zero; both non-negative, denominator > 0. */
export function divideRoundHalfUp(numerator: bigint, denominator: bigint): bigint {
  return (2n * numerator + denominator) / (2n * denominator);
}

/** The decimal text of `units / 10^scale` without trailing zeros ("1.5", "1508", "0.0042"). */
export function formatScaled(units: bigint, scale: number): string {
  const digits = units.toString().padStart(scale + 1, '0');
  if (scale === 0) return digits;
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/**
 * `units / 10^scale` as the JavaScript number closest to it. Number(units) is exact below 2^53
 * and a division of two exact integers is correctly rounded, so the number prints back as the
 * same decimal (JSON.stringify(12.34) is "12.34").
 */
export function scaledToNumber(units: bigint, scale: number): number {
  if (units > BigInt(Number.MAX_SAFE_INTEGER)) return Number(formatScaled(units, scale));
  return Number(units) / 10 ** scale;
}
