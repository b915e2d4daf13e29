/**
 * Invoice numbers (server/src/modules/marketplace/invoices/invoice-numbers.ts) on the real database
 * (PGlite, or PostgreSQL with DATABASE_URL): INV-<year>-<six digits>, sequential per year, without
 * gaps under concurrent calls and when a unit of work rolls back.
 */
import { describe, expect, it } from 'vitest';
import { InvoiceNumbers, formatInvoiceNumber } from '../../server/src/modules/marketplace/invoices/invoice-numbers.js';
import { forgetInvoiceYears } from '../support/row-states.js';
import { useTestServer } from '../support/suite.js';

const suite = useTestServer({ WORKERS: '0' });

// years of their own, so that a database kept between runs starts each run from nothing
const YEAR = 2101;
const NEXT_YEAR = 2102;

function numbers() {
  return new InvoiceNumbers(suite.server.riff.platform.scope);
}

async function resetYears() {
  await forgetInvoiceYears(suite.server, [YEAR, NEXT_YEAR]);
}

const at = (year: number, rest = '-06-01T12:00:00.000Z') => new Date(`${year}${rest}`);

describe('invoice numbers', () => {
  it('start at INV-<year>-000001 and go on per year, the year taken in UTC', async () => {
    await resetYears();
    const invoices = numbers();
    expect(await invoices.next(at(YEAR))).toBe(`INV-${YEAR}-000001`);
    expect(await invoices.next(at(YEAR, '-12-31T23:59:59.999Z'))).toBe(`INV-${YEAR}-000002`);
    expect(await invoices.next(at(NEXT_YEAR, '-01-01T00:00:00.000Z'))).toBe(`INV-${NEXT_YEAR}-000001`);
    expect(await invoices.next(at(YEAR))).toBe(`INV-${YEAR}-000003`);
    expect(formatInvoiceNumber(2026, 1)).toBe('INV-2026-000001');
    expect(formatInvoiceNumber(2026, 1_234_567)).toBe('INV-2026-1234567');
  });

  it('20 concurrent units of work get 20 consecutive numbers, none twice, none skipped', async () => {
    await resetYears();
    const { scope } = suite.server.riff.platform;
    const invoices = numbers();
    const taken = await Promise.all(Array.from({ length: 20 }, () => scope.transaction(() => invoices.next(at(YEAR)))));
    expect([...taken].sort()).toEqual(Array.from({ length: 20 }, (_, index) => formatInvoiceNumber(YEAR, index + 1)));
    // and without a transaction of their own (each statement its own)
    const more = await Promise.all(Array.from({ length: 20 }, () => invoices.next(at(YEAR))));
    expect([...more].sort()).toEqual(Array.from({ length: 20 }, (_, index) => formatInvoiceNumber(YEAR, index + 21)));
  });

  it('a unit of work that rolls back gives its number back: no gap', async () => {
    await resetYears();
    const { scope } = suite.server.riff.platform;
    const invoices = numbers();
    expect(await invoices.next(at(YEAR))).toBe(`INV-${YEAR}-000001`);
    const failed = scope.transaction(async () => {
      expect(await invoices.next(at(YEAR))).toBe(`INV-${YEAR}-000002`);
      throw new Error('the invoice could not be stored');
    });
    await expect(failed).rejects.toThrow('the invoice could not be stored');
    expect(await invoices.next(at(YEAR))).toBe(`INV-${YEAR}-000002`);
  });
});
