import type { IngestInput } from '../ingest.types';
import { SANDBOX_MESSAGES } from '../sandbox.acquirer';
import { addDays, compact, isoDow, zonedInstant } from '../time';
import { basketUsd, cardNumber, minorFor, refundAmount, resultOf, secondOfDay, withTail } from './amounts';
import { brandMix, channelWeight } from './catalog';
import { Rng } from './rng';
import type { GenMerchant } from './setup';

export interface StreamOptions {
  seed: string;
  /** Average transactions per merchant and day (scaled by the merchant's size and the weekday). */
  perDay: number;
  platformTz: string;
  /** Last date generated (events due after it are dropped). */
  end: string;
  /** Nothing happens after this instant; processing payments older than 6 h have resolved. */
  now: Date;
}

/** A generated day of one merchant: the rows, and refund amounts that reserve on their purchase. */
export interface DayOut {
  inputs: IngestInput[];
  /** [merId, purchase order number, amount]: successful or processing refunds (return_amount). */
  returns: [string, string, number][];
}

type Event = { at: number; input: IngestInput; reserve?: number };

const RESOLVE_AFTER_MS = 6 * 3_600_000;
const DECLINE = 'Declined: do not honour';

/** The transactions of one merchant, day after day, deterministic for (seed, merchant). */
export class MerchantStream {
  private readonly later = new Map<string, Event[]>();
  private readonly channels: (readonly [string, number])[];
  private readonly currencies: (readonly [string, number])[];

  constructor(
    private readonly m: GenMerchant,
    private readonly o: StreamOptions,
  ) {
    this.channels = m.channels.map((c) => [c, channelWeight(c)] as const);
    const others = m.currencies.filter((c) => c !== m.defaultCurrency);
    this.currencies = m.currencies.includes(m.defaultCurrency)
      ? [[m.defaultCurrency, 70], ...others.map((c) => [c, 30 / Math.max(others.length, 1)] as const)]
      : m.currencies.map((c) => [c, 1] as const);
  }

  private schedule(date: string, e: Event) {
    if (date > this.o.end) return;
    const list = this.later.get(date);
    if (list) list.push(e);
    else this.later.set(date, [e]);
  }

  private result(minor: number, at: number): [string, string] {
    const r = resultOf(minor);
    if (r === '01') return ['01', SANDBOX_MESSAGES.insufficientFunds];
    if (r === '00') return ['00', SANDBOX_MESSAGES.approved];
    if (this.o.now.getTime() - at < RESOLVE_AFTER_MS) return ['04', SANDBOX_MESSAGES.processing];
    return minor % 100 === 14 ? ['01', SANDBOX_MESSAGES.declinedByIssuer] : ['00', SANDBOX_MESSAGES.approved];
  }

  day(date: string): DayOut {
    const rng = new Rng(`${this.o.seed}:${this.m.merId}:${date}`);
    const start = zonedInstant(date, this.o.platformTz).getTime();
    const cap = Math.min(start + 86_400_000, this.o.now.getTime());
    const dow = isoDow(date);
    const mean = this.o.perDay * this.m.size * (dow >= 6 ? 1.15 : dow === 1 ? 0.9 : 1) * (0.85 + rng.next() * 0.3);
    const times: number[] = [];
    for (let i = Math.round(mean); i > 0; i--) {
      const at = start + secondOfDay(rng) * 1000;
      if (at < cap) times.push(at);
    }
    times.sort((a, b) => a - b);
    const events: Event[] = [];
    const prefix = `D${compact(date)}-`;
    times.forEach((at, i) => this.purchase(rng, date, at, `${prefix}${String(i + 1).padStart(5, '0')}`, events, start + 86_399_000));
    this.periodic(rng, date, start, cap, events);
    for (const e of this.later.get(date) ?? []) if (e.at < cap) events.push(e);
    this.later.delete(date);
    const returns: [string, string, number][] = [];
    for (const e of events) if (e.reserve) returns.push([this.m.merId, e.input.originOrderNo!, e.reserve]);
    return { inputs: events.map((e) => e.input), returns };
  }

  /** About 15 % of purchases happen in one of the merchant's stores (the draw is the same whether it has stores or not). */
  private store(n: number): { storeId: string | null; storeName: string | null } {
    const s = n && this.m.stores.length ? this.m.stores[(n - 1) % this.m.stores.length] : null;
    return { storeId: s?.id ?? null, storeName: s?.name ?? null };
  }

  private base(rng: Rng, at: number, orderNo: string, channel: string, currency: string, amount: number): IngestInput {
    const brand = rng.weighted(brandMix(channel, this.m.country));
    return {
      merId: this.m.merId,
      orderNo,
      tranType: 'PURC',
      amount,
      currency,
      paymentSchema: channel,
      paymentBrand: brand,
      gwResponse: '00',
      txnTime: new Date(at),
      channelOrderNo: `${channel.slice(0, 4)}${rng.digits(12)}`,
      source: 'generator',
      cardNumber: channel === 'CARD' ? cardNumber(rng, brand) : null,
      merReserve: rng.chance(0.3) ? `cart-${rng.digits(6)}` : null,
      ...this.store(rng.chance(0.15) ? rng.int(1, 9) : 0),
    };
  }

  private purchase(rng: Rng, date: string, at: number, orderNo: string, out: Event[], dayEnd: number) {
    const channel = rng.weighted(this.channels);
    const currency = rng.weighted(this.currencies);
    let amount = minorFor(basketUsd(rng), currency);
    const kind = rng.next();
    if (kind < 0.008 || kind > 0.993) {
      // A declined attempt (DECL) or a pre-authorisation (PAUT): recorded, never settled.
      const input = this.base(rng, at, orderNo, channel, currency, amount);
      input.tranType = kind < 0.008 ? 'DECL' : 'PAUT';
      [input.gwResponse, input.respMsg] = input.tranType === 'DECL' ? ['01', DECLINE] : ['00', SANDBOX_MESSAGES.approved];
      out.push({ at, input });
      return;
    }
    const r = rng.next();
    amount = withTail(amount, r < 0.08 ? 'fail' : r < 0.09 ? 'pendOk' : r < 0.095 ? 'pendFail' : 'ok');
    const input = this.base(rng, at, orderNo, channel, currency, amount);
    [input.gwResponse, input.respMsg] = this.result(amount, at);
    out.push({ at, input });
    if (input.gwResponse === '00') this.fate(rng, date, at, input, out, dayEnd);
  }

  /** What happens to a successful purchase later: void, full or partial refunds, a chargeback, or nothing. */
  private fate(rng: Rng, date: string, at: number, p: IngestInput, out: Event[], dayEnd: number) {
    const r = rng.next();
    const child = (tranType: string, orderNo: string, amount: number, when: number): IngestInput => ({
      ...p,
      tranType,
      orderNo,
      amount,
      txnTime: new Date(when),
      originOrderNo: p.orderNo,
      channelOrderNo: `${p.channelOrderNo}${orderNo.slice(-2)}`,
      orderAmount: null,
      orderCurrency: null,
    });
    if (r < 0.01) {
      const when = Math.min(at + rng.int(60, 7200) * 1000, dayEnd);
      if (when < this.o.now.getTime()) out.push({ at: when, input: { ...child('VOID', `${p.orderNo}-V`, p.amount, when), respMsg: SANDBOX_MESSAGES.approved } });
    } else if (r < 0.04) {
      this.refund(rng, date, p, child, p.amount, 1);
    } else if (r < 0.08) {
      const first = refundAmount(
        Math.round(p.amount * (0.1 + rng.next() * 0.5)),
        p.amount,
        rng.weighted([
          ['ok', 95],
          ['fail', 3],
          ['pendOk', 2],
        ] as const),
      );
      if (!first) return;
      this.refund(rng, date, p, child, first, 1);
      if (rng.chance(0.3)) {
        const second = refundAmount(Math.round(p.amount * (0.05 + rng.next() * 0.25)), p.amount - first, 'ok');
        if (second) this.refund(rng, date, p, child, second, 2);
      }
    } else if (r < 0.083) {
      const d = addDays(date, rng.int(15, 60));
      const when = zonedInstant(d, this.o.platformTz).getTime() + secondOfDay(rng) * 1000;
      this.schedule(d, { at: when, input: { ...child('DISPUTE', `${p.orderNo}-CB`, p.amount, when), respMsg: 'Chargeback' } });
    }
  }

  private refund(rng: Rng, date: string, p: IngestInput, child: (t: string, o: string, a: number, w: number) => IngestInput, amount: number, n: number) {
    const d = addDays(date, rng.int(1, 20) + (n - 1) * rng.int(1, 10));
    const when = zonedInstant(d, this.o.platformTz).getTime() + secondOfDay(rng) * 1000;
    const input = child('REFD', `${p.orderNo}-R${n}`, amount, when);
    [input.gwResponse, input.respMsg] = this.result(amount, when);
    this.schedule(d, { at: when, input, reserve: input.gwResponse === '01' ? undefined : amount });
  }

  /** Fee collections, manual entries, freezes and revenue share: the back office's own rows. */
  private periodic(rng: Rng, date: string, start: number, cap: number, out: Event[]) {
    const cur = this.m.currencies.includes(this.m.defaultCurrency) ? this.m.defaultCurrency : this.m.currencies[0];
    const channel = this.m.channels[0];
    const CODE: Record<string, string> = { FEE_COLLECTION: 'FEE', PROFIT_INCOME: 'PIN', PROFIT_OUTGO: 'POU', MANENTD: 'ADJ', FREEZE: 'FRZ' };
    const add = (tranType: string, usd: number, msg: string, extra: Partial<IngestInput> = {}): boolean => {
      const at = start + rng.int(3600, 7 * 3600) * 1000;
      if (at >= cap) return false;
      out.push({
        at,
        input: {
          merId: this.m.merId,
          orderNo: `${CODE[tranType]}${compact(date)}`,
          tranType,
          amount: withTail(minorFor(usd, cur), 'ok'),
          currency: cur,
          paymentSchema: channel,
          paymentBrand: null,
          gwResponse: '00',
          respMsg: msg,
          txnTime: new Date(at),
          source: 'generator',
          ...extra,
        },
      });
      return true;
    };
    if (date.endsWith('-01')) add('FEE_COLLECTION', 30, 'Monthly service fee');
    if (date.endsWith('-15') && rng.chance(0.5)) add('PROFIT_INCOME', 20 + rng.next() * 180, 'Revenue share');
    if (date.endsWith('-15') && rng.chance(0.3)) add('PROFIT_OUTGO', 10 + rng.next() * 90, 'Revenue share');
    if (rng.chance(0.07)) add('MANENTD', 5 + rng.next() * 300, 'Manual adjustment', { amountSign: rng.chance(0.5) ? 1 : -1 });
    if (rng.chance(0.02)) {
      const usd = 100 + rng.next() * 900;
      if (!add('FREEZE', usd, 'Funds held for review')) return;
      const d = addDays(date, rng.int(7, 21));
      const at = zonedInstant(d, this.o.platformTz).getTime() + 4 * 3_600_000;
      this.schedule(d, {
        at,
        input: {
          merId: this.m.merId,
          orderNo: `UNF${compact(date)}`,
          tranType: 'UNFREEZE',
          amount: withTail(minorFor(usd, cur), 'ok'),
          currency: cur,
          paymentSchema: channel,
          paymentBrand: null,
          gwResponse: '00',
          respMsg: 'Funds released',
          txnTime: new Date(at),
          source: 'generator',
        },
      });
    }
  }
}
