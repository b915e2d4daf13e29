import type { PromoCodeRow } from './orders.repository.js';

/** One priced line, in integer cents. */
export interface PricedLine {
  productId: string;
  priceCents: number;
  /** Whether the promo code covers this line (its seller's, and among its products when it names some). */
  eligible: boolean;
}

/**
 * The promo code's discount over the eligible lines, in integer cents. It is taken once off their
 * total (a percentage rounded half up to the cent; an amount capped at that total) and split over
 * them in proportion to their prices by largest remainder: each line gets the floor of its exact
 * share, and the cents left go one each to the lines with the largest fractions (the dearest first
 * on a tie). So the shares add up to the discount exactly, and no line is discounted below 0.
 */
export function discountLines(
  lines: PricedLine[],
  promo: Pick<PromoCodeRow, 'percent_off' | 'amount_off_cents'>,
): number[] {
  const eligibleTotal = lines.reduce((sum, line) => sum + (line.eligible ? line.priceCents : 0), 0);
  const total =
    promo.percent_off !== null
      ? Math.floor((eligibleTotal * promo.percent_off + 50) / 100)
      : Math.min(Number(promo.amount_off_cents ?? 0), eligibleTotal);
  const shares = lines.map(() => 0);
  if (total <= 0 || eligibleTotal === 0) return shares;
  // exact shares as integers: total × price = share × eligibleTotal + fraction (BigInt: the product can pass 2^53)
  const fractions: { index: number; fraction: bigint }[] = [];
  let given = 0;
  lines.forEach((line, index) => {
    if (!line.eligible) return;
    const exact = BigInt(total) * BigInt(line.priceCents);
    shares[index] = Number(exact / BigInt(eligibleTotal));
    given += shares[index]!;
    fractions.push({ index, fraction: exact % BigInt(eligibleTotal) });
  });
  fractions.sort((a, b) =>
    a.fraction === b.fraction
      ? lines[b.index]!.priceCents - lines[a.index]!.priceCents || a.index - b.index
      : a.fraction > b.fraction
        ? -1
        : 1,
  );
  // the cents left are fewer than the lines with a fraction, and each of those has a cent of room
  for (let left = total - given, next = 0; left > 0; left--, next++) shares[fractions[next]!.index]! += 1;
  return shares;
}

/** Major units of integer cents (1799 → 17.99): the division gives the double closest to the decimal. */
export const majorUnits = (cents: number) => cents / 100;
