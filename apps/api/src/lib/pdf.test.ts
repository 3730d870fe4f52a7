import { describe, expect, it } from 'vitest';
import { createPdf, pdfDateTime, pdfMoney, pdfPageNumbers, pdfTable, pdfToBuffer } from './pdf.js';
import { pdfText } from '../../test/pdf-text.js';

const SAMPLES = {
  en: 'Settlement statement',
  zh: '结算对账单 合计',
  ja: '精算明細書 合計 ひらがな',
  ko: '정산 명세서 합계',
} as const;

describe('pdf', () => {
  for (const [lang, text] of Object.entries(SAMPLES) as [keyof typeof SAMPLES, string][]) {
    it(`renders ${lang} text that reads back, with a subset font`, async () => {
      const doc = createPdf({ lang, title: text, createdAt: new Date('2026-01-01T00:00:00Z') });
      doc.fontSize(14).text(text);
      pdfTable(
        doc,
        [
          { header: 'A', width: 100 },
          { header: 'B', width: 100, align: 'right' },
        ],
        [['x', pdfMoney(123450, 'USD', lang)]],
      );
      pdfPageNumbers(doc);
      const buf = await pdfToBuffer(doc);
      expect(buf.subarray(0, 5).toString()).toBe('%PDF-');
      // the whole face is 4-8 MB; a subset of a few glyphs stays small
      expect(buf.length).toBeLessThan(200_000);
      const out = await pdfText(buf);
      for (const word of text.split(' ')) expect(out).toContain(word);
      expect(out).toContain('1,234.50');
    });
  }

  it('formats money and time', () => {
    expect(pdfMoney(-5, 'JPY', 'ja')).toBe('-5');
    expect(pdfMoney(100000, 'EUR', 'en')).toBe('1,000.00');
    expect(pdfDateTime(new Date('2026-01-31T16:30:00Z'))).toBe('2026-02-01 00:30:00');
  });
});
