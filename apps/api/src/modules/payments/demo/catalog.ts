/** Reference data of the demo generator: regions, channels, brands, currency values, fee schedules. */

/** Approximate USD value of one unit of each currency (the FX random walk starts here). */
export const USD_VALUE: Readonly<Record<string, number>> = {
  HKD: 0.1282,
  EUR: 1.085,
  USD: 1,
  MYR: 0.2125,
  PHP: 0.0178,
  THB: 0.0282,
  GBP: 1.265,
  JPY: 0.00668,
  IDR: 0.0000632,
  CAD: 0.738,
  NPR: 0.0075,
  AUD: 0.655,
  CNY: 0.1385,
  KRW: 0.000742,
  MOP: 0.1245,
  NZD: 0.602,
  TWD: 0.0312,
  SGD: 0.745,
  RUB: 0.0109,
  INR: 0.01198,
  CHF: 1.128,
  QAR: 0.2747,
};

/** Daily volatility of each currency against USD (pegged ones barely move). */
export const FX_SIGMA: Readonly<Record<string, number>> = { USD: 0, HKD: 0.0003, MOP: 0.0003, QAR: 0.0002, CNY: 0.0015 };
export const DEFAULT_FX_SIGMA = 0.004;

/** A region the generator creates merchants in. */
export interface Region {
  country: string;
  city: string;
  currency: string;
  extraCurrencies: string[];
  channels: string[];
  acquirer: string;
  mcc: string[];
}

export const REGIONS: readonly Region[] = [
  { country: 'HK', city: 'Hong Kong', currency: 'HKD', extraCurrencies: ['USD', 'CNY'], channels: ['CARD', 'AP', 'WX', 'UP', 'PPRO_OCTOPUS'], acquirer: 'HSBC-HK', mcc: ['5999', '5812', '5411'] },
  { country: 'CN', city: 'Shenzhen', currency: 'CNY', extraCurrencies: ['USD', 'HKD'], channels: ['UP', 'APP', 'AP', 'APMP', 'WX', 'EXUP'], acquirer: 'BOC-SH', mcc: ['5311', '5732', '5999'] },
  { country: 'JP', city: 'Osaka', currency: 'JPY', extraCurrencies: ['USD'], channels: ['CARD', 'AP', 'WX', 'PPRO_PAYPAY', 'PPRO_KONBINI'], acquirer: 'MUFG-JP', mcc: ['5812', '5945', '5732'] },
  { country: 'KR', city: 'Seoul', currency: 'KRW', extraCurrencies: ['USD'], channels: ['CARD', 'AP', 'PPRO_KAKAOPAY', 'PPRO_NAVERPAY'], acquirer: 'KB-KR', mcc: ['5999', '5651'] },
  { country: 'SG', city: 'Singapore', currency: 'SGD', extraCurrencies: ['USD'], channels: ['CARD', 'AP', 'WX', 'PPRO_PAYNOW', 'PPRO_GRABPAY'], acquirer: 'DBS-SG', mcc: ['5812', '4722'] },
  { country: 'MY', city: 'Kuala Lumpur', currency: 'MYR', extraCurrencies: ['USD', 'SGD'], channels: ['CARD', 'AP', 'PPRO_FPX', 'PPRO_TNG'], acquirer: 'DBS-SG', mcc: ['5411', '5999'] },
  { country: 'TH', city: 'Bangkok', currency: 'THB', extraCurrencies: ['USD'], channels: ['CARD', 'AP', 'PPRO_PROMPTPAY', 'PPRO_TRUEMONEY'], acquirer: 'DBS-SG', mcc: ['7011', '5812'] },
  { country: 'PH', city: 'Manila', currency: 'PHP', extraCurrencies: ['USD'], channels: ['CARD', 'PPRO_GCASH', 'PPRO_MAYA'], acquirer: 'DBS-SG', mcc: ['5999'] },
  { country: 'ID', city: 'Jakarta', currency: 'IDR', extraCurrencies: ['USD'], channels: ['CARD', 'PPRO_QRIS', 'PPRO_DANA', 'PPRO_OVO'], acquirer: 'DBS-SG', mcc: ['5999', '5814'] },
  { country: 'GB', city: 'London', currency: 'GBP', extraCurrencies: ['EUR', 'USD'], channels: ['CARD', 'AP', 'PPRO_KLARNA'], acquirer: 'BARC-GB', mcc: ['5691', '5945'] },
  {
    country: 'DE',
    city: 'Berlin',
    currency: 'EUR',
    extraCurrencies: ['GBP', 'CHF', 'USD'],
    channels: ['CARD', 'AP', 'PPRO_SOFORT', 'PPRO_GIROPAY', 'PPRO_KLARNA'],
    acquirer: 'BARC-GB',
    mcc: ['5732', '5999'],
  },
  { country: 'NL', city: 'Amsterdam', currency: 'EUR', extraCurrencies: ['USD'], channels: ['CARD', 'PPRO_IDEAL', 'PPRO_BCMC'], acquirer: 'BARC-GB', mcc: ['5999'] },
  { country: 'US', city: 'San Francisco', currency: 'USD', extraCurrencies: ['CAD', 'EUR'], channels: ['CARD', 'AP', 'WX', 'UP'], acquirer: 'CITI-US', mcc: ['5999', '5734', '4722'] },
  { country: 'AU', city: 'Sydney', currency: 'AUD', extraCurrencies: ['NZD', 'USD'], channels: ['CARD', 'AP', 'WX', 'PPRO_POLI'], acquirer: 'CITI-US', mcc: ['5812', '5999'] },
  { country: 'IN', city: 'Mumbai', currency: 'INR', extraCurrencies: ['USD'], channels: ['CARD', 'PPRO_UPI', 'PPRO_PAYTM'], acquirer: 'CITI-US', mcc: ['5999'] },
  { country: 'TW', city: 'Taipei', currency: 'TWD', extraCurrencies: ['USD'], channels: ['CARD', 'AP', 'PPRO_LINEPAY'], acquirer: 'HSBC-HK', mcc: ['5732'] },
];

export const EXTRA_ACQUIRERS: readonly [string, string, string][] = [
  ['DBS-SG', 'DBS', 'DBS Bank Ltd'],
  ['KB-KR', 'KB', 'KB Kookmin Bank'],
  ['BARC-GB', 'Barclays', 'Barclays Bank PLC'],
  ['CITI-US', 'Citi', 'Citibank N.A.'],
];

/** The brand of a local-method channel PPRO_X. */
const PPRO_BRAND: Readonly<Record<string, string>> = {
  PPRO_IDEAL: 'ideal',
  PPRO_PAYPAY: 'paypay',
  PPRO_KONBINI: 'konbini',
  PPRO_KAKAOPAY: 'kakaopay',
  PPRO_NAVERPAY: 'naverpay',
  PPRO_PAYNOW: 'paynow',
  PPRO_GRABPAY: 'grabpay',
  PPRO_FPX: 'fpx',
  PPRO_TNG: 'tng',
  PPRO_PROMPTPAY: 'promptpay',
  PPRO_TRUEMONEY: 'truemoney',
  PPRO_GCASH: 'gcash',
  PPRO_MAYA: 'maya',
  PPRO_QRIS: 'qris',
  PPRO_DANA: 'dana',
  PPRO_OVO: 'ovo',
  PPRO_KLARNA: 'klarna',
  PPRO_SOFORT: 'sofort',
  PPRO_GIROPAY: 'giropay',
  PPRO_BCMC: 'bcmc',
  PPRO_POLI: 'poli',
  PPRO_UPI: 'upi',
  PPRO_PAYTM: 'paytm',
  PPRO_LINEPAY: 'line_pay',
  PPRO_OCTOPUS: 'octopus',
};

/** Card schemes by the merchant's country (the buyers' mix differs by region). */
const CARD_MIX: Readonly<Record<string, readonly (readonly [string, number])[]>> = {
  JP: [
    ['jcb', 35],
    ['visa', 35],
    ['mastercard', 20],
    ['amex', 8],
    ['diners', 2],
  ],
  US: [
    ['visa', 50],
    ['mastercard', 28],
    ['amex', 15],
    ['discover', 6],
    ['diners', 1],
  ],
  CN: [
    ['unionpay', 60],
    ['visa', 25],
    ['mastercard', 15],
  ],
  HK: [
    ['visa', 45],
    ['mastercard', 35],
    ['unionpay', 10],
    ['amex', 8],
    ['jcb', 2],
  ],
  KR: [
    ['visa', 45],
    ['mastercard', 40],
    ['amex', 5],
    ['jcb', 10],
  ],
  default: [
    ['visa', 52],
    ['mastercard', 35],
    ['amex', 7],
    ['unionpay', 3],
    ['jcb', 2],
    ['diners', 1],
  ],
};

export function brandMix(channel: string, country: string): readonly (readonly [string, number])[] {
  if (channel === 'CARD') return CARD_MIX[country] ?? CARD_MIX.default;
  if (channel === 'UP' || channel === 'APP' || channel === 'EXUP' || channel === 'UP_B2B') return [['unionpay', 1]];
  if (channel === 'WX') return [['wechat_pay', 1]];
  if (channel === 'AP' || channel === 'APDP' || channel === 'APMP') {
    return country === 'HK'
      ? [
          ['alipay_hk', 60],
          ['alipay_cn', 40],
        ]
      : [
          ['alipay_cn', 80],
          ['alipay_hk', 20],
        ];
  }
  const b = PPRO_BRAND[channel];
  return b ? [[b, 1]] : [['paypal', 1]];
}

/** Card number prefixes by scheme (test numbers; only first six and last four are ever stored). */
export const CARD_PREFIX: Readonly<Record<string, string>> = {
  visa: '4',
  mastercard: '51',
  amex: '37',
  jcb: '3528',
  discover: '6011',
  unionpay: '62',
  diners: '36',
};

/** Share of a merchant's volume per channel: cards and wallets lead, local methods follow. */
export function channelWeight(channel: string): number {
  if (channel === 'CARD') return 40;
  if (channel === 'AP' || channel === 'WX') return 25;
  if (channel === 'UP' || channel === 'APP') return 20;
  if (channel === 'APMP' || channel === 'EXUP') return 8;
  return 10;
}

/** A fee schedule row of `merchant_fee`, amounts in settlement minor units. */
export interface FeeSchedule {
  busLine: string;
  mdrBp: number;
  fixedFee: number;
  cycleDays: number;
  reserveBp: number;
  holdDays: number;
  threshold: number;
  tranFee: number;
  period: string;
}

const f = (busLine: string, mdrBp: number, cycleDays: number, period: string, o: Partial<FeeSchedule> = {}): FeeSchedule => ({
  busLine,
  mdrBp,
  cycleDays,
  period,
  fixedFee: 0,
  reserveBp: 0,
  holdDays: 0,
  threshold: 0,
  tranFee: 0,
  ...o,
});

/** The demo merchants' schedules: every cycle, period, reserve and threshold kind appears. */
export const DEMO_FEES: Readonly<Record<string, FeeSchedule[]>> = {
  '100000000000001': [
    f('UP', 180, 1, 'D'),
    f('AP', 220, 2, 'W1', { threshold: 500_000 }),
    f('WX', 200, 1, 'D', { tranFee: 1_500 }),
    f('CARD', 280, 2, 'D', { fixedFee: 200, reserveBp: 1000, holdDays: 30, tranFee: 1_500 }),
    f('PPRO', 150, 3, 'M1', { threshold: 1_000_000, tranFee: 2_500 }),
  ],
  '100000000000002': [f('UP', 160, 1, 'D'), f('AP', 200, 1, 'D', { reserveBp: 500, holdDays: 14 }), f('WX', 200, 1, 'W5', { threshold: 100_000 })],
  '100000000000003': [
    f('CARD', 300, 2, 'D', { reserveBp: 1000, holdDays: 30, tranFee: 2_000 }),
    f('AP', 250, 1, 'W3'),
    f('PPRO', 200, 3, 'M15', { tranFee: 500 }),
    f('WX', 220, 1, 'D', { threshold: 50_000 }),
  ],
  '200000000000001': [f('CARD', 290, 1, 'D', { fixedFee: 30 }), f('AP', 230, 2, 'D', { tranFee: 300 })],
};

/** Options a generated merchant's schedule is drawn from (thresholds and fees in major units × 100). */
export const FEE_CHOICES = {
  mdrBp: [120, 150, 180, 200, 220, 250, 280, 300, 350],
  cycleDays: [0, 1, 1, 1, 2, 2, 3, 7],
  period: ['D', 'D', 'D', 'W1', 'W3', 'W5', 'M1', 'M15'],
  reserve: [
    [0, 0],
    [0, 0],
    [0, 0],
    [500, 30],
    [1000, 30],
    [1000, 60],
    [300, 14],
  ] as [number, number][],
  thresholdMajor: [0, 0, 100, 1000, 5000],
  tranFeeMajor: [0, 0, 5, 15, 25],
  fixedFeeMinor: [0, 0, 0, 10, 30, 200],
};
