import type { Certificate } from '@riff/contract';

/** Draws a certificate of completion on landscape A4: the learner, the course, the instructor, the date and the code. */
export async function renderCertificatePdf(certificate: Certificate, verifyUrl: string): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 60,
    info: { Title: `Certificate ${certificate.code}`, Author: 'Riff', Subject: certificate.course_title },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - 120;
  doc.font('Helvetica-Bold').fontSize(30).text('Certificate of completion', 60, 90, { width, align: 'center' });
  doc.moveDown(1.5).font('Helvetica').fontSize(14).text('This certifies that', { width, align: 'center' });
  doc.moveDown(0.5).font('Helvetica-Bold').fontSize(24).text(certificate.learner_name, { width, align: 'center' });
  doc.moveDown(0.5).font('Helvetica').fontSize(14).text('completed the course', { width, align: 'center' });
  doc.moveDown(0.5).font('Helvetica-Bold').fontSize(20).text(certificate.course_title, { width, align: 'center' });
  doc
    .moveDown(0.5)
    .font('Helvetica')
    .fontSize(14)
    .text(`taught by ${certificate.instructor_name}, on ${certificate.completed_at.slice(0, 10)}`, {
      width,
      align: 'center',
    });
  doc
    .moveDown(3)
    .fontSize(11)
    .text(`Verification code: ${certificate.code}`, { width, align: 'center' })
    .text(verifyUrl, { width, align: 'center' });
  doc.end();
  return done;
}
