import type { Language, MerchantFeeRow } from '@portal/contract';
import { createPdf, pdfDateTime, pdfPageNumbers, pdfTable, pdfToBuffer, PDF_FONT, PDF_FONT_BOLD } from '../../lib/pdf';
import { label as l } from '../../lib/labels';

const T = {
  title: l('Fee schedule', '费率表', '수수료표', '手数料表'),
  merchant: l('Merchant', '商户', '가맹점', '加盟店'),
  asOf: l('As of', '生效日', '기준일', '基準日'),
  generated: l('Generated', '生成时间', '생성 시각', '作成日時'),
  busLine: l('Business line', '业务线', '사업 라인', '事業ライン'),
  channels: l('Channels', '渠道', '채널', 'チャネル'),
  rate: l('Rate (%)', '费率（%）', '수수료율(%)', '料率（%）'),
  fixed: l('Fixed fee', '固定手续费', '고정 수수료', '固定手数料'),
  cycle: l('Cycle', '结算周期', '정산 주기', '精算サイクル'),
  reserve: l('Reserve', '保证金', '보증금', '保証金'),
  from: l('Effective from', '生效日期', '적용 시작일', '適用開始日'),
  to: l('Effective to', '失效日期', '적용 종료일', '適用終了日'),
  note: l(
    'Rates apply per transaction of the business line; the fixed fee is charged on purchases, in the settlement currency.',
    '费率按业务线逐笔计收；固定手续费仅对消费交易收取，以结算币种计。',
    '수수료율은 사업 라인의 거래마다 적용되며, 고정 수수료는 결제 거래에만 정산 통화로 부과됩니다.',
    '料率は事業ラインの取引ごとに適用され、固定手数料は売上取引にのみ精算通貨で課されます。',
  ),
};

/** The merchant's fee schedule as a PDF in the reader's language. */
export async function feeSchedulePdf(s: { merId: string; merName: string; fees: MerchantFeeRow[]; period: string }, lang: Language, tz: string, now: Date): Promise<Buffer> {
  const doc = createPdf({ lang, title: `${T.title[lang]} ${s.merId}`, createdAt: now, layout: 'landscape' });
  doc.font(PDF_FONT_BOLD).fontSize(16).text(T.title[lang]);
  doc.moveDown(0.5).font(PDF_FONT).fontSize(9);
  doc.text(`${T.merchant[lang]}: ${s.merId}  ${s.merName}`);
  doc.text(`${T.asOf[lang]}: ${s.period}`);
  doc.text(`${T.generated[lang]}: ${pdfDateTime(now, tz)}`);
  doc.moveDown(0.8);
  pdfTable(
    doc,
    [
      { header: T.busLine[lang], width: 70 },
      { header: T.channels[lang], width: 170 },
      { header: T.rate[lang], width: 65, align: 'right' },
      { header: T.fixed[lang], width: 85, align: 'right' },
      { header: T.cycle[lang], width: 55, align: 'right' },
      { header: T.reserve[lang], width: 90, align: 'right' },
      { header: T.from[lang], width: 95 },
      { header: T.to[lang], width: 95 },
    ],
    s.fees.map((f) => [
      f.busLine,
      f.channels.join(', ') || '—',
      f.rate,
      `${f.fixedFee} ${f.currency}`,
      `T+${f.cycleDays}`,
      `${f.reserveRate}% / ${f.reserveHoldDays}d`,
      f.effectiveFrom ?? '—',
      f.effectiveTo ?? '—',
    ]),
    9,
  );
  doc.moveDown(0.8).font(PDF_FONT).fontSize(8).text(T.note[lang]);
  pdfPageNumbers(doc);
  return pdfToBuffer(doc);
}
