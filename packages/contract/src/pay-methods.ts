import { brandName } from './brands';
import { busLineOf } from './payments';
import type { PayMethod } from './paybylink';

/**
 * The payment methods a buyer may use for a link: a method is offered when the merchant has its
 * channel enabled and the method accepts the order's currency. Order of the table = order of the
 * logos in the QR dialog and on the checkout page.
 */
interface MethodDef {
  brand: string;
  /** Channel group (business line) the merchant must have a channel of: UP, AP, WX, CARD, PPRO. */
  group: string;
  /** PPRO methods need their own channel (PPRO_IDEAL …), not any PPRO channel. */
  channel?: string;
  /** Currencies accepted; undefined = every currency of spec §9. */
  currencies?: readonly string[];
  card?: boolean;
}

const WALLET_CUR = ['CNY', 'HKD', 'USD', 'EUR', 'GBP', 'JPY', 'KRW', 'SGD', 'AUD', 'CAD', 'NZD', 'THB', 'MYR', 'CHF', 'MOP', 'TWD'];

const METHODS: readonly MethodDef[] = [
  { brand: 'visa', group: 'CARD', card: true },
  { brand: 'mastercard', group: 'CARD', card: true },
  { brand: 'amex', group: 'CARD', card: true, currencies: ['USD', 'EUR', 'GBP', 'HKD', 'JPY', 'AUD', 'CAD', 'SGD', 'CNY', 'CHF', 'NZD'] },
  { brand: 'jcb', group: 'CARD', card: true, currencies: ['JPY', 'USD', 'HKD', 'TWD', 'KRW', 'SGD', 'EUR', 'AUD', 'CNY'] },
  { brand: 'unionpay', group: 'UP', card: true },
  { brand: 'alipay_cn', group: 'AP', currencies: WALLET_CUR },
  { brand: 'alipay_hk', group: 'AP', currencies: ['HKD'] },
  { brand: 'wechat_pay', group: 'WX', currencies: WALLET_CUR },
  { brand: 'ideal', group: 'PPRO', channel: 'PPRO_IDEAL', currencies: ['EUR'] },
  { brand: 'paypay', group: 'PPRO', channel: 'PPRO_PAYPAY', currencies: ['JPY'] },
  { brand: 'gcash', group: 'PPRO', channel: 'PPRO_GCASH', currencies: ['PHP'] },
  { brand: 'kakaopay', group: 'PPRO', channel: 'PPRO_KAKAOPAY', currencies: ['KRW'] },
];

const logoUrl = (brand: string) => `/api/payByLink/logo/${brand}.svg`;

/** Methods for `currency` given the merchant's enabled channels (the channel used is the merchant's first of the group). */
export function methodsFor(currency: string, merchantChannels: readonly string[]): PayMethod[] {
  const out: PayMethod[] = [];
  for (const m of METHODS) {
    if (m.currencies && !m.currencies.includes(currency)) continue;
    const channel = m.channel ? merchantChannels.find((c) => c.toUpperCase() === m.channel) : merchantChannels.find((c) => busLineOf(c) === m.group);
    if (!channel) continue;
    out.push({ code: m.brand, name: brandName(m.brand), channel: channel.toUpperCase(), logo: logoUrl(m.brand), card: !!m.card });
  }
  return out;
}
