import type { TestCtx } from '../../../test/helpers';
import { addConnection, addKey, HEADERS } from './gateway.service';
import { sign } from './gateway.crypto';
import { ensureFeedWindow } from '../../db/partitions';

export interface TestKey {
  keyId: string;
  secret: string;
}

/**
 * What the partition job does at start-up for the feed (issue 47): the ledger's months of the
 * feed's window exist (the feed never creates one). For suites that send back-dated rows.
 */
export async function makeFeedMonths(ctx: Pick<TestCtx, 'db' | 'config' | 'clock'>): Promise<void> {
  await ensureFeedWindow(ctx.db, ctx.clock.now(), ctx.config.feedWindow.daysBack);
}

/** A connection reporting for `merchants`, with one key. */
export async function makeConnection(ctx: Pick<TestCtx, 'db' | 'config'>, id: string, merchants: string[]): Promise<TestKey> {
  await addConnection(ctx.db, { id, name: `Gateway ${id}`, merchants }, 'test');
  return addKey(ctx.db, ctx.config, id, 'test');
}

/** Headers of a request signed with `key` at `at` (default: the app's clock). */
export function signedHeaders(key: TestKey, method: string, url: string, body: string, atMs: number): Record<string, string> {
  const ts = String(Math.floor(atMs / 1000));
  return {
    'content-type': 'application/json',
    [HEADERS.keyId]: key.keyId,
    [HEADERS.timestamp]: ts,
    [HEADERS.signature]: sign(key.secret, ts, method, url, body),
  };
}

/**
 * A signed provider call through the app (inject). The test clock moves one second first, so two
 * identical calls are two signatures (a gateway retrying re-signs with a new timestamp).
 */
export function signedCall(ctx: TestCtx, key: TestKey, method: 'POST' | 'GET', url: string, body: unknown, o: { atMs?: number; headers?: Record<string, string> } = {}) {
  const payload = body === undefined ? '' : JSON.stringify(body);
  if (o.atMs === undefined) ctx.clock.advance(1000);
  return ctx.call({ method, url, payload, headers: { ...signedHeaders(key, method, url, payload, o.atMs ?? ctx.clock.now().getTime()), ...o.headers } });
}

/** A feed row (spec field names) of the demo group merchant, HKD card purchase. */
export function feedRow(o: Record<string, unknown> = {}): Record<string, unknown> {
  const n = Math.random().toString(36).slice(2, 10);
  return {
    gwGTransId: `GW-${n}`,
    clientid: '100000000000001',
    orderNum: `F-${n}`,
    gwTranType: 'PURC',
    gwResponse: '00',
    gwAmount: '123.45',
    gwCurrency: 'HKD',
    paymentSchema: 'CARD',
    paymentBrand: 'visa',
    currentTime: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    cardNumber: '4111111111111111',
    ...o,
  };
}
