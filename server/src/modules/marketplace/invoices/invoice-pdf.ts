import type { Invoice, InvoiceParty } from '@riff/contract';

/**
 * Integer cents as major units with two decimals, by integer arithmetic only (19.99, never
 * 19.990000001): the platform keeps every currency in hundredths.
 */
export function formatMoney(cents: number, currency: string): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be an integer: ${cents}`);
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const major = (abs - (abs % 100)) / 100;
  return `${sign}${major.toLocaleString('en-US')}.${String(abs % 100).padStart(2, '0')} ${currency}`;
}

const LICENSES: Record<string, string> = {
  streaming: 'Streaming',
  personal: 'Personal',
  commercial: 'Commercial',
  exclusive: 'Exclusive',
};

const MARGIN = 50;
const COLUMNS = [
  { title: 'Item', width: 205, align: 'left' },
  { title: 'License', width: 70, align: 'left' },
  { title: 'Price', width: 80, align: 'right' },
  { title: 'Discount', width: 70, align: 'right' },
  { title: 'Amount', width: 70, align: 'right' },
] as const;

function party(doc: PDFKit.PDFDocument, label: string, who: InvoiceParty, x: number, y: number) {
  doc.font('Helvetica-Bold').fontSize(10).text(label, x, y, { width: 230 });
  doc.font('Helvetica').text(who.name, { width: 230 });
  if (who.email) doc.text(who.email, { width: 230 });
}

function row(doc: PDFKit.PDFDocument, cells: readonly string[], y: number, bold = false): number {
  doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(10);
  let x = MARGIN;
  let height = 0;
  cells.forEach((cell, index) => {
    const column = COLUMNS[index]!;
    doc.text(cell, x, y, { width: column.width - 6, align: column.align });
    height = Math.max(height, doc.heightOfString(cell, { width: column.width - 6 }));
    x += column.width;
  });
  return y + height + 6;
}

/** Draws the invoice on A4: parties, one row per line, the subtotal, the discount and the total. */
function draw(doc: PDFKit.PDFDocument, invoice: Invoice) {
  const issued = invoice.issued_at.slice(0, 10);
  doc.font('Helvetica-Bold').fontSize(22).text('Invoice', MARGIN, MARGIN);
  doc
    .font('Helvetica')
    .fontSize(10)
    .text(`Number: ${invoice.number}`)
    .text(`Issued: ${issued}`)
    .text(`Currency: ${invoice.currency}`);
  const partiesY = doc.y + 16;
  party(doc, 'Seller', invoice.seller, MARGIN, partiesY);
  const sellerBottom = doc.y;
  party(doc, 'Bill to', invoice.buyer, MARGIN + 260, partiesY);
  let y = Math.max(sellerBottom, doc.y) + 24;

  y = row(
    doc,
    COLUMNS.map((column) => column.title),
    y,
    true,
  );
  doc
    .moveTo(MARGIN, y - 3)
    .lineTo(MARGIN + 495, y - 3)
    .stroke();
  for (const line of invoice.lines) {
    if (y > doc.page.height - 140) {
      doc.addPage();
      y = MARGIN;
    }
    y = row(
      doc,
      [
        line.title,
        line.license_type ? (LICENSES[line.license_type] ?? line.license_type) : '-',
        formatMoney(line.price_cents, invoice.currency),
        line.discount_cents > 0 ? `-${formatMoney(line.discount_cents, invoice.currency)}` : '-',
        formatMoney(line.total_cents, invoice.currency),
      ],
      y,
    );
  }
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + 495, y)
    .stroke();
  y += 8;
  const subtotal = invoice.lines.reduce((sum, line) => sum + line.price_cents, 0);
  const totals: Array<[string, string, boolean]> = [
    ['Subtotal', formatMoney(subtotal, invoice.currency), false],
    [
      'Discount',
      invoice.discount_cents > 0
        ? `-${formatMoney(invoice.discount_cents, invoice.currency)}`
        : formatMoney(0, invoice.currency),
      false,
    ],
    ['Total', formatMoney(invoice.total_cents, invoice.currency), true],
  ];
  for (const [label, amount, bold] of totals) {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 12 : 10);
    doc.text(label, MARGIN + 275, y, { width: 140 });
    doc.text(amount, MARGIN + 345, y, { width: 144, align: 'right' });
    y = doc.y + 4;
  }
  doc
    .font('Helvetica')
    .fontSize(8)
    .fillColor('#555555')
    .text('Issued by Riff on behalf of the seller. Amounts include any applicable taxes.', MARGIN, y + 24, {
      width: 495,
    });
}

/**
 * The invoice as a PDF document (GET /marketplace/orders/{id}/invoice without Accept: application/json).
 * Text is set in the PDF standard fonts (Helvetica, WinAnsi): characters outside Latin-1 and a few
 * typographic marks do not show in them.
 */
export async function renderInvoicePdf(invoice: Invoice): Promise<Buffer> {
  // pdfkit loads on the first invoice: it took a quarter of a second of every start
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    info: {
      Title: `Invoice ${invoice.number}`,
      Author: invoice.seller.name,
      Creator: 'Riff',
      CreationDate: new Date(invoice.issued_at),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  draw(doc, invoice);
  doc.end();
  return done;
}
