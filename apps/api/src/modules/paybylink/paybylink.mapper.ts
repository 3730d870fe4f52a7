import type { FastifyRequest } from 'fastify';
import { toDecimal, type PayByLinkActivity, type PayByLinkOrder, type PayByLinkRow } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { formatInZone } from '../../lib/zone';
import type { EventRow, PblDbRow } from './paybylink.repo';

/**
 * Base of the links handed to buyers: configuration only (PUBLIC_URL; development default
 * http://localhost:PORT) — never the request's Host or X-Forwarded-Host, which a caller chooses.
 * The request parameter is accepted for older callers and ignored.
 */
export function linkBaseOf(deps: Deps, _req?: FastifyRequest): string {
  return deps.config.publicUrl.replace(/\/+$/, '');
}
export const payLink = (base: string, token: string) => `${base}/pay/${token}`;

/** The token of a pay link (or of a bare token), null when it is not one. */
export function tokenOfLink(link: string): string | null {
  const m = /(?:^|\/pay\/)([A-Za-z0-9_-]{43})(?:[/?#].*)?$/.exec(link.trim());
  return m ? m[1] : null;
}

const time = (d: Date | null, tz: string) => (d ? formatInZone(d, tz) : null);

export function toRow(r: PblDbRow, tz: string): PayByLinkRow {
  return {
    id: r.id,
    orderno: r.order_no,
    createTime: formatInZone(r.created_at, tz),
    reconId: r.recon_id,
    orderCurrency: r.order_currency,
    totalAmount: toDecimal(r.total_amount, r.order_currency),
    buyerEmail: r.buyer_email,
    status: r.status,
    openStatus: r.open_status,
    prodCategory: r.prod_category,
    merId: r.mer_id,
    merName: r.mer_name,
  };
}

export function toOrder(r: PblDbRow, tz: string, linkBase: string): PayByLinkOrder {
  return {
    ...toRow(r, tz),
    goodsName: r.goods_name,
    goodsPrice: toDecimal(r.goods_price, r.order_currency),
    goodsQuantity: r.goods_quantity,
    logFee: toDecimal(r.log_fee, r.order_currency),
    remarks: r.remarks,
    userEmail: r.user_email,
    attachment: r.file_key,
    fileName: r.file_name,
    sendEmailChecked: r.send_email,
    link: payLink(linkBase, r.token),
    expireTime: formatInZone(r.expires_at, tz),
    paidTime: time(r.paid_at, tz),
    closeTime: time(r.closed_at, tz),
    closeReason: r.close_reason,
    emailStatus: r.email_status,
    txnId: r.txn_id,
  };
}

export function toActivity(e: EventRow, tz: string): PayByLinkActivity {
  return { time: formatInZone(e.at, tz), kind: e.kind, actor: e.actor, detail: e.detail ?? {} };
}
