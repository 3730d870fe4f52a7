import { describe, expect, it } from 'vitest';
import en from '../../../locales/en/txn.json';
import zh from '../../../locales/zh/txn.json';
import ko from '../../../locales/ko/txn.json';
import ja from '../../../locales/ja/txn.json';
import { refundNotice } from './refund-outcome';

describe('refund notice', () => {
  it('a refund the gateway has not confirmed is said to be processing, not successful', () => {
    expect(refundNotice({ code: 0, msg: 'Refund submitted, processing', gwResponse: '04', refundId: 1 })).toEqual({ kind: 'info', key: 'refund.processing', duration: 6, leave: true });
    expect(refundNotice({ code: 0, msg: 'Refund successful', gwResponse: '00' })).toMatchObject({ kind: 'success', text: 'Refund successful', leave: true });
    expect(refundNotice({ code: 3, msg: 'The refund was declined: Do not honour', gwResponse: '05' })).toEqual({ kind: 'error', text: 'The refund was declined: Do not honour', leave: false });
  });

  it('says so in four languages, naming the status the list shows', () => {
    for (const l of [en, zh, ko, ja]) {
      expect(l.refund.processing).toContain(l.result.P);
      expect(l.refund.processing).not.toBe(l.refund.success);
    }
  });
});
