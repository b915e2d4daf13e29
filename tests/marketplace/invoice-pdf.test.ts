/**
 * The invoice PDF (server/src/modules/marketplace/invoices/invoice-pdf.ts), read back with a PDF
 * text extractor (pdf-parse, on pdf.js): the number, the parties, every line and the totals appear
 * with exact cents.
 */
import { PDFParse } from 'pdf-parse';
import { describe, expect, it } from 'vitest';
import { InvoiceSchema, type Invoice } from '@riff/contract';
import { formatMoney, renderInvoicePdf } from '../../server/src/modules/marketplace/invoices/invoice-pdf.js';

async function textOf(pdf: Buffer): Promise<{ text: string; pages: number }> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    const result = await parser.getText();
    return { text: result.text, pages: result.total };
  } finally {
    await parser.destroy();
  }
}

const invoice: Invoice = {
  number: 'INV-2026-000042',
  issued_at: '2026-11-23T12:00:00.000Z',
  seller: { id: '0b6f3c2e-8d4a-4f1e-9c7b-2a5d6e8f1a3b', name: 'Nova Lights', email: null },
  buyer: { id: '7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f', name: 'Theo Marsh', email: 'theo@example.org' },
  lines: [
    {
      product_id: 'd1e2f3a4-b5c6-4d7e-8f9a-0b1c2d3e4f5a',
      title: 'Night Drive (beat)',
      license_type: 'commercial',
      price_cents: 1999,
      discount_cents: 200,
      total_cents: 1799,
    },
    {
      product_id: 'e2f3a4b5-c6d7-4e8f-9a0b-1c2d3e4f5a6b',
      title: 'Drum kit vol. 2',
      license_type: null,
      price_cents: 1,
      discount_cents: 0,
      total_cents: 1,
    },
    {
      product_id: 'f3a4b5c6-d7e8-4f9a-8b1c-2d3e4f5a6b7c',
      title: 'Mixing session',
      license_type: 'exclusive',
      price_cents: 123_456_78,
      discount_cents: 0,
      total_cents: 123_456_78,
    },
  ],
  discount_cents: 200,
  total_cents: 1799 + 1 + 123_456_78,
  currency: 'USD',
};

describe('formatMoney', () => {
  it('writes integer cents as major units with exactly two decimals, without floating point', () => {
    expect(formatMoney(1999, 'USD')).toBe('19.99 USD');
    expect(formatMoney(1, 'EUR')).toBe('0.01 EUR');
    expect(formatMoney(0, 'USD')).toBe('0.00 USD');
    expect(formatMoney(10, 'USD')).toBe('0.10 USD');
    expect(formatMoney(12_345_678, 'USD')).toBe('123,456.78 USD');
    expect(formatMoney(-1799, 'USD')).toBe('-17.99 USD');
    // 0.1 + 0.2 style sums never enter: the amount is whole cents
    expect(formatMoney(10 + 20, 'USD')).toBe('0.30 USD');
    expect(() => formatMoney(19.99, 'USD')).toThrow(RangeError);
  });
});

describe('renderInvoicePdf', () => {
  it('renders a PDF whose text holds the number, the date, the parties, each line and the totals with exact cents', async () => {
    expect(InvoiceSchema.parse(invoice)).toEqual(invoice);
    const pdf = await renderInvoicePdf(invoice);
    expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { text, pages } = await textOf(pdf);
    expect(pages).toBe(1);
    for (const expected of [
      'Invoice',
      'INV-2026-000042',
      '2026-11-23',
      'Nova Lights',
      'Theo Marsh',
      'theo@example.org',
      'Night Drive (beat)',
      'Commercial',
      '19.99 USD',
      '-2.00 USD',
      '17.99 USD',
      'Drum kit vol. 2',
      '0.01 USD',
      'Mixing session',
      'Exclusive',
      '123,456.78 USD',
    ]) {
      expect(text, expected).toContain(expected);
    }
    // subtotal 1999 + 1 + 12345678 = 12347678; total = that − 200
    expect(text).toMatch(/Subtotal\s+123,476.78 USD/);
    expect(text).toMatch(/Discount\s+-2.00 USD/);
    expect(text).toMatch(/Total\s+123,474.78 USD/);
    expect(text).not.toMatch(/\d\.\d{3,}/);
  });

  it('a long invoice continues on further pages and keeps every line', async () => {
    const lines = Array.from({ length: 80 }, (_, index) => ({
      product_id: 'd1e2f3a4-b5c6-4d7e-8f9a-0b1c2d3e4f5a',
      title: `Sample pack no. ${index + 1}`,
      license_type: 'personal' as const,
      price_cents: 101 + index,
      discount_cents: 0,
      total_cents: 101 + index,
    }));
    const total = lines.reduce((sum, line) => sum + line.total_cents, 0);
    const { text, pages } = await textOf(
      await renderInvoicePdf({ ...invoice, lines, discount_cents: 0, total_cents: total, currency: 'EUR' }),
    );
    expect(pages).toBeGreaterThan(1);
    for (let index = 1; index <= 80; index++) expect(text).toContain(`Sample pack no. ${index}`);
    expect(text).toContain('1.80 EUR');
    expect(text).toMatch(new RegExp(`Total\\s+${formatMoney(total, 'EUR').replace('.', '\\.')}`));
  });
});
