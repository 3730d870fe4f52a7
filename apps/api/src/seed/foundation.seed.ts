import { ALL_PERMISSIONS, READ_ONLY_PERMISSIONS, WRITE_PERMISSIONS, Perm } from '@portal/contract';
import type { Db, Queryable } from '../db/db';
import { hashPassword, newToken } from '../lib/crypto';

export const DEMO = {
  password: 'Demo1234',
  group: '100000000000001',
  subA: '100000000000002',
  subB: '100000000000003',
  other: '200000000000001',
  /** Demo stores (pay in store): two of the group, two of the Shanghai sub-merchant (the airport counter has no brand enabled), one of the other merchant. */
  stores: { causewayBay: 'S10000001', tsimShaTsui: 'S10000002', nanjingRoad: 'S10000003', pudongAirport: 'S10000004', orchard: 'S20000001' },
  users: { demo: 'demo', sub: 'demo-sub', other: 'other-main' },
} as const;

/** Permissions of the read-only sub-user: no refund, no pay-by-link create, nothing that writes. */
export const DEMO_SUB_PERMISSIONS = READ_ONLY_PERMISSIONS.filter((p) => !WRITE_PERMISSIONS.includes(p) && p !== Perm.merchantUser);

const L = (en: string, zh: string, ko: string, ja: string) => JSON.stringify({ en, zh, ko, ja });

/** True when the database holds no merchant yet (first start). */
export async function isEmpty(q: Queryable): Promise<boolean> {
  const { rows } = await q.query<{ n: number }>('SELECT count(*)::int AS n FROM merchant');
  return rows[0].n === 0;
}

/**
 * The development seed: one group merchant with two sub-merchants, a second unrelated merchant
 * (to prove scope), users demo / demo-sub / other-main with password Demo1234, and notices.
 * Refused in production.
 */
export async function seedFoundation(db: Db, opts: { env: string }): Promise<void> {
  if (opts.env === 'production') throw new Error('The demo seed is refused when NODE_ENV=production');
  const pw = await hashPassword(DEMO.password);
  await db.tx(async (q) => {
    await q.query(
      `INSERT INTO acquirer (code, brief_name, name) VALUES
        ('HSBC-HK', 'HSBC', 'The Hongkong and Shanghai Banking Corporation'),
        ('BOC-SH', 'BOC', 'Bank of China, Shanghai Branch'),
        ('MUFG-JP', 'MUFG', 'MUFG Bank')`,
    );
    const m = `INSERT INTO merchant (mer_id, name, web_store_name, corporation_name, company_address, country, city, postcode, mcc,
        legal_reg_no, merchant_url, attribute, parent_id, contractor, acquirer_id, application_date, default_currency, settle_currency,
        daily_limit, deposit, approved_at, principal_name, principal_email, principal_tel, operation_name, operation_email, operation_tel,
        channels, currencies)
      VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,(SELECT id FROM acquirer WHERE code=$15),$16,$17,$18,$19,$20,now(),$21,$22,$23,$24,$25,$26,$27,$28)`;
    await q.query(m, [
      DEMO.group,
      'Demo Group Ltd',
      'Demo Group',
      'Demo Group Holdings Ltd',
      '1 Harbour Road, Wan Chai',
      'HK',
      'Hong Kong',
      '999077',
      '5999',
      'HK-1234567',
      'https://demo-group.example',
      'GROUP',
      null,
      2,
      'HSBC-HK',
      '2024-03-01',
      'HKD',
      'HKD',
      500000000,
      1000000,
      'Alice Chan',
      'alice@demo-group.example',
      '+852 5555 0101',
      'Bob Lee',
      'ops@demo-group.example',
      '+852 5555 0102',
      ['UP', 'AP', 'WX', 'CARD', 'PPRO_IDEAL'],
      ['HKD', 'USD', 'CNY', 'EUR', 'JPY'],
    ]);
    await q.query(m, [
      DEMO.subA,
      'Demo Store Shanghai',
      'Demo Store SH',
      'Demo Trading (Shanghai) Co., Ltd',
      '88 Century Avenue, Pudong',
      'CN',
      'Shanghai',
      '200120',
      '5411',
      'CN-91310000',
      'https://sh.demo-group.example',
      'SUB',
      DEMO.group,
      1,
      'BOC-SH',
      '2024-04-10',
      'CNY',
      'CNY',
      200000000,
      500000,
      'Chen Wei',
      'chen@demo-group.example',
      '+86 21 5555 0201',
      'Li Na',
      'ops-sh@demo-group.example',
      '+86 21 5555 0202',
      ['UP', 'APP', 'AP', 'APMP', 'WX'],
      ['CNY', 'USD', 'HKD'],
    ]);
    await q.query(m, [
      DEMO.subB,
      'Demo Online Shop',
      'Demo Online',
      'Demo E-Commerce KK',
      '1-1 Marunouchi, Chiyoda-ku',
      'JP',
      'Tokyo',
      '100-0005',
      '5734',
      'JP-0100-01',
      'https://shop.demo-group.example',
      'SUB',
      DEMO.group,
      1,
      'MUFG-JP',
      '2024-06-01',
      'JPY',
      'USD',
      100000000,
      0,
      'Sato Yuki',
      'sato@demo-group.example',
      '+81 3 5555 0301',
      'Kim Min-ji',
      'ops-jp@demo-group.example',
      '+81 3 5555 0302',
      ['CARD', 'AP', 'PPRO_PAYPAY', 'WX'],
      ['JPY', 'USD', 'KRW', 'EUR'],
    ]);
    await q.query(m, [
      DEMO.other,
      'Other Merchant Co',
      'Other',
      'Other Merchant Co Ltd',
      '5 Orchard Road',
      'SG',
      'Singapore',
      '238823',
      '5812',
      'SG-2019',
      'https://other.example',
      'INDEPENDENT',
      null,
      1,
      'HSBC-HK',
      '2025-01-15',
      'SGD',
      'SGD',
      50000000,
      0,
      'Tan Mei',
      'tan@other.example',
      '+65 5555 0401',
      'Lim Kai',
      'ops@other.example',
      '+65 5555 0402',
      ['CARD', 'AP'],
      ['SGD', 'USD'],
    ]);
    await seedDemoStores(q);
    const b = `INSERT INTO merchant_bank_account (mer_id, beneficiary_bank, swift_code, bank_address, account_name, account_number, country, currency, is_default)
      VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9)`;
    await q.query(b, [
      DEMO.group,
      'The Hongkong and Shanghai Banking Corporation',
      'HSBCHKHHHKH',
      "1 Queen's Road Central, Hong Kong",
      'Demo Group Holdings Ltd',
      '004123456789001',
      'HK',
      'HKD',
      true,
    ]);
    await q.query(b, [DEMO.group, 'Citibank N.A. Hong Kong', 'CITIHKHXXXX', '3 Garden Road, Central, Hong Kong', 'Demo Group Holdings Ltd', '006987654321', 'HK', 'USD', false]);
    await q.query(b, [DEMO.subA, 'Bank of China Shanghai Branch', 'BKCHCNBJ300', '200 Yincheng Road, Pudong, Shanghai', 'Demo Trading (Shanghai) Co., Ltd', '6216610200016587', 'CN', 'CNY', true]);
    await q.query(b, [DEMO.subB, 'MUFG Bank, Ltd.', 'BOTKJPJTXXX', '2-7-1 Marunouchi, Chiyoda-ku, Tokyo', 'Demo E-Commerce KK', '0012345678', 'JP', 'USD', true]);
    await q.query(b, [DEMO.other, 'DBS Bank Ltd', 'DBSSSGSGXXX', '12 Marina Boulevard, Singapore', 'Other Merchant Co Ltd', '0720123456', 'SG', 'SGD', true]);
    const u = `INSERT INTO app_user (username, password_hash, email, mer_id, user_type, user_admin, permissions) VALUES ($1,$2,$3,$4,$5,$6,$7)`;
    await q.query(u, [DEMO.users.demo, pw, 'demo@demo-group.example', DEMO.group, 'MAIN', true, ALL_PERMISSIONS]);
    await q.query(u, [DEMO.users.sub, pw, 'demo-sub@demo-group.example', DEMO.subA, 'SUB', false, DEMO_SUB_PERMISSIONS]);
    await q.query(u, [DEMO.users.other, pw, 'main@other.example', DEMO.other, 'MAIN', true, ALL_PERMISSIONS]);

    const n = `INSERT INTO notice (title, summary, content, level, link, mer_id, published_at) VALUES ($1,$2,$3,$4,$5,$6,now() - ($7 || ' days')::interval)`;
    await q.query(n, [
      L('Summary reports are now per payment brand', '汇总报表已升级为按支付品牌统计', '요약 보고서가 결제 브랜드별로 업그레이드되었습니다', 'サマリーレポートが決済ブランド別になりました'),
      L(
        'The daily summary report now breaks every figure down by payment brand. The old report is still one click away.',
        '每日汇总报表现已按支付品牌细分所有数据。旧版报表仍可一键访问。',
        '일일 요약 보고서가 이제 모든 수치를 결제 브랜드별로 나눕니다. 이전 보고서도 한 번의 클릭으로 볼 수 있습니다.',
        '日次サマリーレポートはすべての数値を決済ブランド別に表示します。旧レポートもワンクリックで開けます。',
      ),
      L(
        'The daily summary report has been upgraded: each row is now per payment brand (VISA, Alipay, WeChat Pay …), with a brand filter. If you need the previous layout, open the report and choose "Old version", or follow the link below.',
        '每日汇总报表已升级：每一行现按支付品牌（VISA、支付宝、微信支付……）统计，并新增品牌筛选。如需旧版格式，请在报表中点击"旧版"，或使用下方链接。',
        '일일 요약 보고서가 업그레이드되었습니다. 이제 각 행이 결제 브랜드별(VISA, Alipay, WeChat Pay …)로 표시되며 브랜드 필터가 추가되었습니다. 이전 형식이 필요하면 보고서에서 "이전 버전"을 선택하거나 아래 링크를 이용하세요.',
        '日次サマリーレポートを改良しました。各行が決済ブランド別（VISA、Alipay、WeChat Pay など）になり、ブランドで絞り込めます。以前の形式が必要な場合は、レポートで「旧バージョン」を選ぶか、下のリンクをご利用ください。',
      ),
      'important',
      '/report/txn?version=old',
      null,
      '2',
    ]);
    await q.query(n, [
      L('Scheduled maintenance on Sunday 02:00–04:00 (UTC+8)', '周日 02:00–04:00（UTC+8）系统维护', '일요일 02:00–04:00(UTC+8) 정기 점검', '日曜 02:00–04:00（UTC+8）定期メンテナンス'),
      L('Reports may be delayed during the maintenance window.', '维护期间报表可能延迟。', '점검 시간 동안 보고서가 지연될 수 있습니다.', 'メンテナンス中はレポートが遅れる場合があります。'),
      L(
        'Payments keep working. Reports and exports may be delayed by up to two hours.',
        '支付不受影响。报表和导出可能最多延迟两小时。',
        '결제는 정상적으로 처리됩니다. 보고서와 내보내기는 최대 2시간 지연될 수 있습니다.',
        '決済は通常どおりご利用いただけます。レポートとエクスポートは最大 2 時間遅れる場合があります。',
      ),
      'info',
      null,
      null,
      '5',
    ]);
    await q.query(n, [
      L('Pay by link: attachments and buyer e-mail', '链接支付：附件和买家邮件', '링크 결제: 첨부 파일과 구매자 이메일', 'リンク決済：添付ファイルと購入者へのメール'),
      L(
        'Send the payment link with an invoice attached straight to your buyer.',
        '可将附带发票的支付链接直接发送给买家。',
        '청구서를 첨부한 결제 링크를 구매자에게 바로 보낼 수 있습니다.',
        '請求書を添付した支払いリンクを購入者へ直接送信できます。',
      ),
      L(
        'When you create a pay-by-link order, tick "Send e-mail" and attach a file (PDF, image or spreadsheet, up to 5 MB).',
        '创建链接支付订单时，勾选"发送邮件"并添加附件（PDF、图片或表格，最大 5 MB）。',
        '링크 결제 주문을 만들 때 "이메일 보내기"를 선택하고 파일(PDF, 이미지, 스프레드시트, 최대 5MB)을 첨부하세요.',
        'リンク決済の注文作成時に「メール送信」を選び、ファイル（PDF・画像・表計算、最大 5 MB）を添付してください。',
      ),
      'info',
      null,
      null,
      '10',
    ]);
  });
}

/** The demo stores; the online shop (subB) has none: its pay in store is not enabled. */
async function seedDemoStores(q: Queryable): Promise<void> {
  const s = 'INSERT INTO store (store_id, mer_id, name, address, brands, static_token) VALUES ($1,$2,$3,$4,$5,$6)';
  await q.query(s, [
    DEMO.stores.causewayBay,
    DEMO.group,
    'Causeway Bay Store',
    '500 Hennessy Road, Causeway Bay, Hong Kong',
    ['visa', 'mastercard', 'unionpay', 'alipay_hk', 'alipay_cn', 'wechat_pay'],
    newToken(),
  ]);
  await q.query(s, [DEMO.stores.tsimShaTsui, DEMO.group, 'Tsim Sha Tsui Kiosk', 'Harbour City, 3 Canton Road, Tsim Sha Tsui, Kowloon', ['alipay_hk', 'wechat_pay'], newToken()]);
  await q.query(s, [DEMO.stores.nanjingRoad, DEMO.subA, '南京路门店 Nanjing Road', '上海市黄浦区南京东路 300 号', ['unionpay', 'alipay_cn', 'wechat_pay'], newToken()]);
  await q.query(s, [DEMO.stores.pudongAirport, DEMO.subA, 'Pudong Airport Counter', 'Terminal 2, Pudong International Airport, Shanghai', [], newToken()]);
  await q.query(s, [DEMO.stores.orchard, DEMO.other, 'Orchard Store', '5 Orchard Road, Singapore', ['visa', 'alipay_cn'], newToken()]);
}
