/** The order timeline (issue 49 §3): found by any reference, every event in time order; bad input, permission, another merchant. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Perm } from '@portal/contract';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { buyerPay, createOrder } from '../paybylink/paybylink.fixtures';
import { generateReportData } from '../report/report.fixtures';
import { zonedInstant } from '../payments/time';

const auth = (token: string, lang = 'en') => ({ 'x-token': token, 'accept-language': lang });

describe.each(DB_KINDS)('order timeline (%s)', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    await generateReportData(ctx.db, ctx.config.platformTz, { from: '2026-09-01', days: 6, perDay: 30, seed: 9 });
    demo = (await ctx.login()).token;
  }, 240_000);
  afterAll(() => ctx?.close());

  const search = (q: Record<string, string>, token = demo) => ctx.call({ method: 'GET', url: '/api/trail/order/search', headers: auth(token), query: q });
  const timeline = (merId: string, no: string, token = demo) => ctx.call({ method: 'GET', url: '/api/trail/order/timeline', headers: auth(token), query: { merId, no } });

  it('a refunded, settled, transferred purchase: found by order number, gateway id and card + amount + date; its timeline in time order', async () => {
    const { rows } = await ctx.db.query<{ mer_id: string; order_no: string; gw_trans_id: string }>(
      `SELECT p.mer_id, p.order_no, p.gw_trans_id FROM txn p JOIN txn r ON r.mer_id = p.mer_id AND r.origin_order_no = p.order_no
        JOIN settlement s ON s.mer_id = p.mer_id AND s.bus_line = p.bus_line AND s.trans_amount > 0 AND p.settle_date BETWEEN s.recon_search_date AND s.txn_set_date
        WHERE p.tran_type = 'PURC' AND p.mer_id <> $1 ORDER BY p.id LIMIT 1`,
      [DEMO.other],
    );
    const p = rows[0];
    for (const q of [p.order_no, p.gw_trans_id]) {
      const r = await search({ q });
      expect(r.body.code, r.body.msg).toBe(0);
      expect(r.body.data.content).toEqual([expect.objectContaining({ merId: p.mer_id, orderNo: p.order_no })]);
    }
    await ctx.db.query(`UPDATE txn SET card_last4 = '4242' WHERE mer_id = $1 AND order_no = $2`, [p.mer_id, p.order_no]);
    const t0 = (
      await ctx.db.query<{ amount: number; currency: string; txn_date: string }>(`SELECT amount, currency::text AS currency, txn_date::text AS txn_date FROM txn WHERE mer_id = $1 AND order_no = $2`, [
        p.mer_id,
        p.order_no,
      ])
    ).rows[0];
    const dec = ['JPY', 'KRW'].includes(t0.currency) ? String(t0.amount) : (t0.amount / 100).toFixed(2);
    const byCard = await search({ last4: '4242', amount: dec, date: t0.txn_date });
    expect(byCard.body.data.content.map((h: { orderNo: string }) => h.orderNo)).toContain(p.order_no);
    const tl = await timeline(p.mer_id, p.order_no);
    expect(tl.body.code, tl.body.msg).toBe(0);
    const kinds = tl.body.data.events.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['attempt', 'refund', 'settled', 'transfer']));
    const at = tl.body.data.events.map((e: { at: string }) => e.at);
    expect([...at].sort()).toEqual(at);
    expect(tl.body.data.events.find((e: { kind: string }) => e.kind === 'transfer').transferId).toMatch(/^\d{4}-\d\d-\d\d\.\d{15}\./);
    // A day's event (settled, transfer) sits at that day's midnight in the platform zone — the configured one, not a fixed zone.
    const dayAt = (body: { events: { kind: string; at: string; day: string | null }[] }) => body.events.filter((e) => e.kind === 'settled' || e.kind === 'transfer').map((e) => [e.at, e.day!]);
    for (const [at, day] of dayAt(tl.body.data)) expect(at).toBe(zonedInstant(day, ctx.config.platformTz).toISOString());
    const platformTz = ctx.config.platformTz;
    ctx.config.platformTz = 'America/New_York';
    try {
      const ny = await timeline(p.mer_id, p.order_no);
      const got = dayAt(ny.body.data);
      expect(got.length).toBeGreaterThanOrEqual(2);
      for (const [at, day] of got) expect(at).toBe(zonedInstant(day, 'America/New_York').toISOString());
    } finally {
      ctx.config.platformTz = platformTz;
    }
  });

  it("the order's dispute and the bank credit matched to the transfer that paid it join the timeline", async () => {
    const { rows } = await ctx.db.query<{ id: number; mer_id: string; order_no: string; currency: string; bus_line: string; set_cur: string; txn_set_date: string }>(
      `SELECT p.id, p.mer_id, p.order_no, p.currency::text AS currency, s.bus_line, s.set_cur::text AS set_cur, s.txn_set_date::text AS txn_set_date
         FROM txn p JOIN settlement s ON s.mer_id = p.mer_id AND s.bus_line = p.bus_line AND s.set_cur = p.settle_currency AND s.trans_amount > 0
                                      AND p.settle_date BETWEEN s.recon_search_date AND s.txn_set_date
        WHERE p.tran_type = 'PURC' AND p.mer_id <> $1 ORDER BY p.id DESC LIMIT 1`,
      [DEMO.other],
    );
    const p = rows[0];
    await ctx.db.query(
      `INSERT INTO dispute (gw_dispute_id, mer_id, purchase_id, kind, state, brand, reason_code, amount, currency, deadline, opened_at)
       VALUES ('DSP-TL-1', $1, $2, 'chargeback', 'needs_response', 'visa', '13.1', 100, $3, now() + interval '9 days', now())`,
      [p.mer_id, p.id, p.currency],
    );
    const st = await ctx.db
      .query<{ id: number }>(
        `INSERT INTO bank_statement (mer_id, format, stmt_ref, account, currency, content_hash, file_name, entry_count, added_count) VALUES ($1, 'camt053', 'TL-STMT', 'ACC', $2, 'h', 's.xml', 1, 1) RETURNING id`,
        [p.mer_id, p.set_cur],
      )
      .catch((e) => {
        throw new Error(`bank_statement: ${e}`);
      });
    const en = await ctx.db.query<{ id: number }>(
      `INSERT INTO bank_entry (mer_id, statement_id, account, fingerprint, booking_date, amount_minor, currency, bank_ref) VALUES ($1, $2, 'ACC', 'f1', $3::date + 1, 12345, $4, 'BANK-TL-1') RETURNING id`,
      [p.mer_id, st.rows[0].id, p.txn_set_date, p.set_cur],
    );
    const m = await ctx.db.query<{ id: number }>(
      `INSERT INTO bank_match (mer_id, kind, state, currency, credit_minor, transfer_minor, confirmed_by) VALUES ($1, 'exact', 'confirmed', $2, 12345, 12345, 'finance') RETURNING id`,
      [p.mer_id, p.set_cur],
    );
    await ctx.db.query('INSERT INTO bank_match_entry (match_id, entry_id) VALUES ($1, $2)', [m.rows[0].id, en.rows[0].id]);
    await ctx.db.query('INSERT INTO bank_match_transfer (match_id, mer_id, bus_line, set_cur, txn_set_date) VALUES ($1, $2, $3, $4, $5)', [
      m.rows[0].id,
      p.mer_id,
      p.bus_line,
      p.set_cur,
      p.txn_set_date,
    ]);
    const tl = await timeline(p.mer_id, p.order_no);
    expect(tl.body.code, tl.body.msg).toBe(0);
    const ev = (k: string) => tl.body.data.events.find((e: { kind: string }) => e.kind === k);
    expect(ev('dispute')).toEqual(expect.objectContaining({ status: 'needs_response', txnId: String(p.id) }));
    expect(ev('bankCredit')).toEqual(expect.objectContaining({ ref: 'BANK-TL-1', actor: 'finance', transferId: `${p.txn_set_date}.${p.mer_id}.${p.bus_line}.${p.set_cur}` }));
  });

  it("a pay-by-link order found by the buyer's e-mail: created, paid (the attempt), who did what", async () => {
    const o = await createOrder(ctx, demo, { buyerEmail: 'Buyer.Trail@example.com' });
    expect((await buyerPay(ctx, o.linkToken)).body.code).toBe(0);
    const r = await search({ q: 'buyer.trail@example.com' });
    expect(r.body.data.content).toEqual([expect.objectContaining({ orderNo: o.orderNo, buyerEmail: 'Buyer.Trail@example.com' })]);
    const tl = await timeline(r.body.data.content[0].merId, o.orderNo);
    const kinds = tl.body.data.events.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(expect.arrayContaining(['link.created', 'link.payment', 'attemptLink']));
    expect(tl.body.data.events.find((e: { kind: string }) => e.kind === 'link.created').actor).toBeTruthy();
  });

  it("refuses bad input; another merchant's order answers as absent; needs txn:detail", async () => {
    expect((await search({})).status).toBe(400);
    expect((await search({ last4: '12a4', amount: '1', date: '2026-09-01' })).status).toBe(400);
    expect((await timeline('123', 'x')).status).toBe(400);
    const { rows } = await ctx.db.query<{ order_no: string }>(`SELECT order_no FROM txn WHERE mer_id = $1 LIMIT 1`, [DEMO.other]);
    expect((await timeline(DEMO.other, rows[0].order_no)).status).toBe(404);
    expect((await search({ q: rows[0].order_no })).body.data.content).toEqual([]);
    expect((await timeline(DEMO.group, 'NO-SUCH-ORDER')).status).toBe(404);
    await ctx.db.query('UPDATE app_user SET permissions = array_remove(permissions, $2) WHERE username = $1', [DEMO.users.sub, Perm.txnDetail]);
    const sub = (await ctx.login(DEMO.users.sub)).token;
    expect((await search({ q: rows[0].order_no }, sub)).status).toBe(403);
  });
});
