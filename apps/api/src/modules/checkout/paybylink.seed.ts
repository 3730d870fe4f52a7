import { toMinor } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import { newToken } from '../../lib/crypto';
import { DEMO } from '../../seed/foundation.seed';
import { formatInZone } from '../../lib/zone';
import { payCheckout } from './checkout.service';
import { addEvent, closeOpenOrder, insertOrder } from '../paybylink';

const DAY = 86_400_000;

interface DemoOrder {
  merId: string;
  reconId: string;
  currency: string;
  total: string;
  goods: string;
  qty?: number;
  email?: string;
  remarks?: string;
  ageDays: number;
  validDays?: number;
  outcome?: 'pay' | 'fail' | 'close';
  category?: string;
}

const ORDERS: DemoOrder[] = [
  { merId: DEMO.group, reconId: 'INV-2026-0142', currency: 'USD', total: '256.00', goods: 'Conference tickets', qty: 2, email: 'li.wei@buyer.example', ageDays: 4, outcome: 'pay' },
  { merId: DEMO.group, reconId: 'INV-2026-0148', currency: 'EUR', total: '10.51', goods: 'Sample pack', ageDays: 3, outcome: 'fail' },
  { merId: DEMO.group, reconId: 'INV-2026-0150', currency: 'CNY', total: '88.00', goods: 'Gift card', ageDays: 3, outcome: 'close' },
  { merId: DEMO.group, reconId: 'INV-2026-0151', currency: 'JPY', total: '5000', goods: 'Workshop seat', ageDays: 3, validDays: 1 },
  { merId: DEMO.group, reconId: 'INV-2026-0153', currency: 'HKD', total: '1280.00', goods: 'Annual service plan', email: 'accounts@harbour.example', remarks: 'Renewal for 2027', ageDays: 1 },
  { merId: DEMO.group, reconId: 'API-88213', currency: 'HKD', total: '64.00', goods: 'Online order #88213', ageDays: 1, category: 'invoice' },
  { merId: DEMO.subA, reconId: 'SH-2026-031', currency: 'CNY', total: '399.00', goods: 'Tea set', email: 'zhang.min@buyer.example', ageDays: 0 },
];

/**
 * Demo pay-by-link orders on first start (development only): open, paid (a real sandbox payment,
 * so its transaction is in the list), failed, closed, expired (ends on the first read), another
 * product category, and one of a sub-merchant.
 */
export async function seedPayByLinkDemo(deps: Deps): Promise<void> {
  const { rows } = await deps.db.query<{ id: number }>('SELECT id FROM app_user WHERE username = $1', [DEMO.users.demo]);
  const userId = rows[0]?.id;
  if (!userId) return;
  const now = deps.clock.now().getTime();
  for (const o of ORDERS) {
    const created = new Date(now - o.ageDays * DAY - 3_600_000);
    const total = toMinor(o.total, o.currency);
    const qty = o.qty ?? 1;
    const token = newToken();
    const id = await deps.db.tx(async (q) => {
      const r = await insertOrder(q, {
        merId: o.merId,
        token,
        reconId: o.reconId,
        goodsName: o.goods,
        currency: o.currency,
        totalAmount: total,
        goodsPrice: Math.round(total / qty),
        goodsQuantity: qty,
        logFee: 0,
        remarks: o.remarks ?? null,
        buyerEmail: o.email ?? null,
        sendEmail: false,
        attachmentId: null,
        expiresAt: new Date(created.getTime() + (o.validDays ?? 7) * DAY),
        createdBy: userId,
        now: created,
        datePrefix: formatInZone(created, deps.config.platformTz).slice(0, 10).replaceAll('-', ''),
      });
      if (o.category) await q.query('UPDATE pay_by_link_order SET prod_category = $2 WHERE id = $1', [r.id, o.category]);
      await addEvent(q, r.id, 'created', DEMO.users.demo, created, { totalAmount: o.total, currency: o.currency });
      return r.id;
    });
    if (o.outcome === 'pay') await payCheckout(deps, token, { method: 'visa', cardNumber: '4111111111111111' });
    if (o.outcome === 'fail') await payCheckout(deps, token, { method: 'wechat_pay' });
    if (o.outcome === 'close') {
      await deps.db.tx(async (q) => {
        if (await closeOpenOrder(q, id, new Date(now - 2 * DAY))) await addEvent(q, id, 'closed', DEMO.users.demo, new Date(now - 2 * DAY));
      });
    }
  }
}
