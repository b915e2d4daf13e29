import type { PromoCodeRow } from './orders.repository.js';

/** One priced line, in integer cents. */
export interface PricedLine {
  productId: string;
  priceCents: number;
  /** Whether the promo code covers this line (its seller's, and among its products when it names some). */
  eligible: boolean;
}

/**
 * The promo code's discount over the eligible lines, spread over them in proportion to their prices
 * (the remainder on the dearest), in integer cents: percent rounds half up, an amount is capped
 * at what the lines cost.
 */
export function discountLines(lines: PricedLine[], promo: Pick<PromoCodeRow, 'percent_off' | 'amount_off_cents'>): number[] {
  const eligibleTotal = lines.reduce((sum, line) => sum + (line.eligible ? line.priceCents : 0), 0);
  const total =
    promo.percent_off !== null
      ? Math.floor((eligibleTotal * promo.percent_off + 50) / 100)
      : Math.min(Number(promo.amount_off_cents ?? 0), eligibleTotal);
  const shares = lines.map(() => 0);
  if (total <= 0 || eligibleTotal === 0) return shares;
  let given = 0;
  let dearest = -1;
  lines.forEach((line, index) => {
    if (!line.eligible) return;
    shares[index] = Math.floor((total * line.priceCents) / eligibleTotal);
    given += shares[index]!;
    if (dearest < 0 || line.priceCents > lines[dearest]!.priceCents) dearest = index;
  });
  shares[dearest]! += total - given;
  return shares;
}

/** Major units of integer cents (1799 → 17.99): the division gives the double closest to the decimal. */
export const majorUnits = (cents: number) => cents / 100;
