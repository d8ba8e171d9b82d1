// Number formatting for pros/cons sentences. Money is formatted from integer micro-dollars by
// string arithmetic, so no amount is ever rounded by floating point on its way to the text.

import { MICROS_PER_DOLLAR } from '../catalog/money.js';

/**
 * USD from micro-dollars: at least two decimals, more only when the amount needs them (at most
 * six), thousands separated by commas: 50000000 -> "$50.00", 1234567 -> "$1.234567",
 * 1500000000 -> "$1,500.00".
 */
export function formatUsd(micros: number): string {
  if (!Number.isSafeInteger(micros) || micros < 0) {
    // Only a budget far beyond any price gets here; the text stays true, if plain.
    return `$${String(micros / MICROS_PER_DOLLAR)}`;
  }
  const whole = Math.floor(micros / MICROS_PER_DOLLAR);
  const fraction = String(micros % MICROS_PER_DOLLAR)
    .padStart(6, '0')
    .replace(/0+$/, '')
    .padEnd(2, '0');
  return `$${groupThousands(String(whole))}.${fraction}`;
}

/**
 * Memory for sentences: below 1024 MB as "<n> MB"; from 1024 MB in GB rounded to at most two
 * decimals, trailing zeros dropped: 512 -> "512 MB", 4096 -> "4 GB", 1928 -> "1.88 GB".
 */
export function formatMemoryText(mb: number): string {
  return mb < 1024 ? `${mb} MB` : `${roundTo(mb / 1024, 2)} GB`;
}

/** A plain decimal rounded to at most `decimals` places, trailing zeros dropped; never "0" for a positive value. */
export function formatDecimal(value: number, decimals: number): string {
  const rounded = roundTo(value, decimals);
  return rounded === 0 && value !== 0 ? String(value) : String(rounded);
}

function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Digits with a comma before each group of three from the right: "1234567" -> "1,234,567". */
export function groupThousands(digits: string): string {
  let text = digits.slice(0, ((digits.length - 1) % 3) + 1);
  for (let at = text.length; at < digits.length; at += 3) text += `,${digits.slice(at, at + 3)}`;
  return text;
}
