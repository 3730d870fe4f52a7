import { describe, expect, it } from 'vitest';
import { safeEncode } from 'zod';
import { txnPageSchema } from '@portal/contract';
import { envelope } from './envelope';
import { fastSerializerCompiler } from './fast-serializer';

const schema = envelope(txnPageSchema);
const serialize = fastSerializerCompiler({ schema });
const row = (i: number) => ({
  id: 1_000_000 + i,
  mrequest: { orderno: `ORD-${i}`, originorderno: i % 2 ? null : `ORIG-${i}`, orderCurrency: 'JPY', orderAmount: '5000' },
  currentTime: '2026-11-27 10:48:28',
  gwResponse: i % 3 ? '00' : null,
  respMsg: 'Approved "quoted" \\ 中文\n',
  merId: '100000000000001',
  merName: 'Demo Store 广州',
  gwTranType: 'PURC',
  gwAmount: '5000',
  gwCurrency: 'JPY',
  returnAmount: '0',
  paymentBrand: null,
  paymentSchema: 'CARD',
  settleFlag: 'N',
  settleState: 'N' as const,
});
const page = { code: 0, msg: 'success', data: { content: [row(1), row(2), row(3)], totalElements: 3, totalExact: true } };

describe("fastSerializerCompiler (the list route's serializer)", () => {
  it('writes what the zod check and JSON.stringify write, nulls and escapes included', () => {
    const viaZod = JSON.stringify(safeEncode(schema, page).data);
    expect(serialize(page)).toBe(viaZod);
    expect(JSON.parse(serialize(page))).toEqual(page);
    expect(serialize({ code: 1, msg: 'no', data: null })).toBe('{"code":1,"msg":"no","data":null}');
  });

  it('leaves out properties the schema does not name, at every level', () => {
    const leaky = { ...page, secret: 's', data: { ...page.data, debug: 1, content: [{ ...row(1), cardNo: '4111111111111111', mrequest: { ...row(1).mrequest, pan: 'x' } }] } };
    const out = serialize(leaky);
    expect(out).not.toMatch(/secret|debug|cardNo|4111|pan/);
    expect(JSON.parse(out).data.content[0]).toEqual(row(1));
  });

  it('refuses an answer missing a required property', () => {
    const { merName: _, ...noName } = row(1);
    expect(() => serialize({ ...page, data: { ...page.data, content: [noName] } })).toThrow(/merName/);
  });
});
