import { brandName, isBrand } from '@portal/contract';

/**
 * Small hand-made SVG logos of the payment methods (100 × 40), served at
 * /api/payByLink/logo/{brand}.svg for the QR dialog and the checkout. Not the brands' artwork:
 * colour marks with the name, enough to recognise the method.
 */
const W = 100;
const H = 40;
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
const FONT = `font-family="Arial, Helvetica, sans-serif" font-weight="700"`;

function frame(body: string, bg = '#ffffff', label = ''): string {
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(label)}">` +
    `<rect x="0.5" y="0.5" width="${W - 1}" height="${H - 1}" rx="6" fill="${bg}" stroke="#d9d9d9"/>${body}</svg>`
  );
}
const word = (text: string, fill: string, size = 16, extra = '') => `<text x="50" y="${20 + size * 0.35}" text-anchor="middle" ${FONT} font-size="${size}" fill="${fill}" ${extra}>${esc(text)}</text>`;

const LOGOS: Record<string, () => string> = {
  visa: () => frame(word('VISA', '#1A1F71', 20, 'font-style="italic" letter-spacing="1"'), '#ffffff', 'VISA'),
  mastercard: () =>
    frame(
      `<circle cx="40" cy="20" r="13" fill="#EB001B"/><circle cx="60" cy="20" r="13" fill="#F79E1B"/>` + `<path d="M50 11.6a13 13 0 0 1 0 16.8a13 13 0 0 1 0-16.8z" fill="#FF5F00"/>`,
      '#ffffff',
      'Mastercard',
    ),
  amex: () => frame(word('AMEX', '#ffffff', 18, 'letter-spacing="2"'), '#016FD0', 'American Express'),
  jcb: () =>
    frame(
      `<rect x="22" y="7" width="18" height="26" rx="5" fill="#0E4C96"/><rect x="41" y="7" width="18" height="26" rx="5" fill="#E21836"/>` +
        `<rect x="60" y="7" width="18" height="26" rx="5" fill="#007B40"/>` +
        `<g ${FONT} font-size="14" fill="#fff" text-anchor="middle"><text x="31" y="25">J</text><text x="50" y="25">C</text><text x="69" y="25">B</text></g>`,
      '#ffffff',
      'JCB',
    ),
  unionpay: () =>
    frame(
      `<path d="M14 6h22l-8 28H6z" fill="#E21836"/><path d="M36 6h22l-8 28H28z" fill="#00447C"/><path d="M58 6h36l-8 28H50z" fill="#007B84"/>` +
        `<text x="60" y="25" text-anchor="middle" ${FONT} font-size="11" fill="#fff">UnionPay</text>`,
      '#ffffff',
      'UnionPay',
    ),
  alipay_cn: () => frame(word('Alipay', '#ffffff', 17), '#1677FF', 'Alipay'),
  alipay_hk: () => frame(word('AlipayHK', '#ffffff', 15), '#1677FF', 'AlipayHK'),
  wechat_pay: () =>
    frame(
      `<ellipse cx="16" cy="19" rx="8" ry="6.5" fill="#fff"/><path d="M12 23.5l-2 4.5 5.5-2.8z" fill="#fff"/>` + `<text x="28" y="24.5" ${FONT} font-size="12" fill="#fff">WeChat Pay</text>`,
      '#07C160',
      'WeChat Pay',
    ),
  ideal: () => frame(word('iDEAL', '#ffffff', 18), '#CC0066', 'iDEAL'),
  paypay: () => frame(word('PayPay', '#FF0033', 18), '#ffffff', 'PayPay'),
  gcash: () => frame(word('GCash', '#ffffff', 18), '#007DFE', 'GCash'),
  kakaopay: () => frame(word('kakaopay', '#1E1E1E', 15), '#FFEB00', 'KakaoPay'),
};

/** The SVG of a brand's logo, or null for an unknown code. */
export function logoSvg(brand: string): string | null {
  const make = LOGOS[brand];
  if (make) return make();
  if (!isBrand(brand)) return null;
  const name = brandName(brand);
  return frame(word(name.length > 12 ? name.slice(0, 12) : name, '#262626', name.length > 9 ? 11 : 14), '#f5f5f5', name);
}
