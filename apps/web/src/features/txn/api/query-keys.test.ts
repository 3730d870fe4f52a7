import { describe, expect, it } from 'vitest';
import { ReportApi, TxnApi } from '@portal/contract';
import { txnListQuery } from './get-txn-list';
import { txnTotalsQuery } from './get-txn-totals';
import { txnDetailQuery } from './get-txn-detail';
import { logisticsQuery } from './logistics';
import { settleListQuery } from './settle';
import { reportListQuery } from '../../report/api/report-client';
import { settleBatchesQuery } from '../../settle/api';
import { cashCalendarQuery } from '../../dashboard/api/get-cash-calendar';
import { apiKey, areaKey } from '../../../lib/api-query';
import { matched } from '../../../lib/matched-queries.testing';

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

  it('settlement: the settle list, the batches and the logistics list stay under ["txn"], which a refund or a result query invalidates', () => {
    const settle = settleListQuery({ beginDate: '2026-03-01', endDate: '2026-03-31', busLine: '', setCur: '', clientid: '', page: 0, size: 20 });
    const batches = settleBatchesQuery({ beginDate: '2026-03-01', endDate: '2026-03-31', page: 0, size: 20 });
    const logistics = logisticsQuery({ page: 0, size: 20 });
    expect(settle.queryKey.slice(0, 2)).toEqual(['txn', 'settleList']);
    expect(batches.queryKey.slice(0, 2)).toEqual(['txn', 'settleDetail']);
    expect(logistics.queryKey.slice(0, 2)).toEqual(['txn', 'settleLogisticsList']);
    for (const q of [settle, batches, logistics]) expect(q.placeholderData).toBeDefined();
    const detail = txnDetailQuery('42').queryKey;
    const keys = [settle.queryKey, batches.queryKey, logistics.queryKey, detail];
    // refund.ts and query-result.ts: areaKey(TxnApi.list), as the hand-named ['txn'] was.
    expect(areaKey(TxnApi.list)).toEqual(['txn']);
    expect(matched({ queryKey: areaKey(TxnApi.list) }, keys)).toEqual(keys);
    // A logistics upload: that list only (it was ['txn', 'logistics']).
    expect(matched({ queryKey: apiKey(TxnApi.logisticsList) }, keys)).toEqual([logistics.queryKey]);
  });

  it('the dashboard: the cash calendar under ["dashboard"], with its own stale time', () => {
    const q = cashCalendarQuery({ merId: '800000000000001', days: 30 });
    expect(q.queryKey).toEqual(['dashboard', 'cashCalendar', { merId: '800000000000001', days: 30 }]);
    expect(q.queryKey[0]).toBe('dashboard');
    expect(q.staleTime).toBe(60_000);
    // Nothing of the transactions' area: a refund does not refresh it (it did not before).
    expect(matched({ queryKey: areaKey(TxnApi.list) }, [q.queryKey])).toEqual([]);
  });
});
