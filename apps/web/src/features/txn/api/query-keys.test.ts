import { describe, expect, it } from 'vitest';
import { ReportApi } from '@portal/contract';
import { txnListQuery } from './get-txn-list';
import { txnTotalsQuery } from './get-txn-totals';
import { txnDetailQuery } from './get-txn-detail';
import { reportListQuery } from '../../report/api/report-client';

/**
 * The transaction and report screens' query keys come from their descriptors (apiQuery, issue 45 §3,
 * decision 074): the path under /api, then the input. The area's first segment stays the prefix
 * their invalidations name (a refund or a result query invalidates ['txn']).
 */
describe('query keys from the endpoint table', () => {
  it('the transaction list, totals and detail', () => {
    const q = { page: 0, size: 20, beginDate: '2026-03-01 00:00:00' };
    expect(txnListQuery(q).queryKey).toEqual(['txn', 'list', q]);
    expect(txnListQuery(q).placeholderData).toBeDefined();
    expect(txnTotalsQuery(q).queryKey).toEqual(['txn', 'totals', q]);
    expect(txnDetailQuery('42').queryKey).toEqual(['txn', ':id', { id: '42' }]);
    for (const key of [txnListQuery(q).queryKey, txnTotalsQuery(q).queryKey, txnDetailQuery('42').queryKey]) expect(key[0]).toBe('txn');
  });

  it('the report lists: one key per list, under the area prefix', () => {
    const q = { page: 0, size: 20, beginDate: '2026-03-01' };
    expect(reportListQuery(ReportApi.billList, q).queryKey).toEqual(['report', 'bill', 'list', q]);
    expect(reportListQuery(ReportApi.txnNewList, q).queryKey).toEqual(['report', 'txn', 'newList', q]);
    expect(reportListQuery(ReportApi.txnList, q).queryKey).not.toEqual(reportListQuery(ReportApi.txnNewList, q).queryKey);
    expect(reportListQuery(ReportApi.reserveList, q).placeholderData).toBeDefined();
  });
});
